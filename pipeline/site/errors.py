"""Why a build did not publish: the answers the command line shows (kept apart from the heavy modules)."""
from __future__ import annotations


class BuildFailed(Exception):
    """The site could not be built; the published site is untouched."""


class OutputRefused(Exception):
    """The output folder cannot be used (the message says why); nothing was changed."""


class BuildLocked(Exception):
    """Another build holds the output folder."""
