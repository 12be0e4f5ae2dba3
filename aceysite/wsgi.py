"""The site as a WSGI application (gunicorn's ``aceysite.wsgi``, and runserver's)."""

import gc
import os
from importlib import import_module

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceysite.settings")

application = get_wsgi_application()

# What starting up made (the modules, the models, and the views, which Django would import
# at the first request: imported here) lives as long as the process: moved to the garbage
# collector's permanent generation, it is never looked through again. Each full collection
# looked through all of it (0.1 s of CPU, every thousand turns or so); with gunicorn's
# preload_app it also stays shared with the workers forked after, not copied on write.
import_module(settings.ROOT_URLCONF)
gc.freeze()
