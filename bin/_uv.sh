# Shared by bin/serve and bin/test: find Python 3.13 and a working uv, never
# letting uv download an interpreter of its own.
# shellcheck shell=bash

export UV_PYTHON_DOWNLOADS=never
# Some machines (this one, CI's) set PYTHONDONTWRITEBYTECODE=1: every Python process then
# compiles every module it imports from source, about 2.5 s of the 4 s Django takes to
# start. The test suite starts dozens (Celery workers, gunicorn, `check --deploy`), so let
# Python keep its bytecode (in __pycache__, ignored by git).
unset PYTHONDONTWRITEBYTECODE

find_python() {
    local candidate
    for candidate in \
        "$(pyenv which python3.13 2>/dev/null)" \
        "$(pyenv prefix 3.13 2>/dev/null)/bin/python3.13" \
        "$(command -v python3.13 2>/dev/null)"; do
        if [ -n "$candidate" ] && "$candidate" -c 'import sys; assert sys.version_info[:2] == (3, 13)' \
            >/dev/null 2>&1; then
            echo "$candidate"
            return 0
        fi
    done
    echo "Python 3.13 not found (install it with pyenv: pyenv install 3.13)" >&2
    return 1
}

PYTHON="$(find_python)"
export UV_PYTHON="$PYTHON"

# A pyenv shim named uv may exist for another Python only, so test that uv runs.
if uv --version >/dev/null 2>&1; then
    UV=(uv)
else
    if ! "$PYTHON" -m uv --version >/dev/null 2>&1; then
        echo "Installing uv into $PYTHON" >&2
        "$PYTHON" -m pip install --quiet --disable-pip-version-check uv
    fi
    UV=("$PYTHON" -m uv)
fi

uv_sync() {
    "${UV[@]}" sync --frozen --python "$PYTHON"
}

uv_run() {
    "${UV[@]}" run --frozen --python "$PYTHON" "$@"
}
