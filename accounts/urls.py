from django.contrib.auth import views as auth_views
from django.urls import path

from . import services, throttle, views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("password/change/", views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(
            extra_context={
                "resets_per_hour": throttle.MAX_RESETS_PER_EMAIL,
                # A function, which the template calls: the setting as it is when the page
                # is drawn, not when this module was imported.
                "link_lifetime": services.reset_link_lifetime,
            }
        ),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("settings/", views.settings_page, name="settings"),
    path("settings/away/", views.away_start, name="away_start"),
    path("settings/close/", views.close_account, name="close_account"),
    path("settings/away/end/", views.away_end, name="away_end"),
    path("settings/email/", views.email_change, name="email_change"),
    path("settings/email/verify/", views.email_verify_send, name="email_verify_send"),
    path("email/confirm/<str:token>/", views.email_change_confirm, name="email_change_confirm"),
    path("email/verify/<str:token>/", views.email_verify, name="email_verify"),
    path(
        "email/undo/<int:user_id>/<str:secret>/",
        views.email_change_undo,
        name="email_change_undo",
    ),
    path("settings/tokens/", views.token_create, name="token_create"),
    path("settings/tokens/<int:token_id>/revoke/", views.token_revoke, name="token_revoke"),
]
