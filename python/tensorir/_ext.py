"""Loads the native extension (_tensorir), built by scripts/build.sh into
build/python, which the build also puts on sys.path (a .pth file in the
user's site-packages)."""
try:
    import _tensorir as _ext  # noqa: F401
except ImportError as error:  # pragma: no cover - a set-up problem
    raise ImportError(
        "tensorir's native extension (_tensorir) was not found; build the "
        "project with ./scripts/build.sh, which also makes it importable"
    ) from error

ext = _ext
