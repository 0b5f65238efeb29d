"""ambush: surprise rules for virtual tabletops"""

from __future__ import annotations


def package_version() -> str:
    """Return the installed version (read lazily: importlib.metadata costs start-up time)"""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ambush")
    except PackageNotFoundError:  # running from a checkout without an install
        return "0.0.0+unknown"


def __getattr__(name: str) -> str:
    """Provide __version__ on first use"""
    if name == "__version__":
        return package_version()
    raise AttributeError(name)


__all__ = ["__version__"]
