"""ambush: surprise rules for virtual tabletops"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("ambush")
except PackageNotFoundError:  # running from a checkout without an install
    __version__ = "0.0.0+unknown"

__all__ = ["__version__"]
