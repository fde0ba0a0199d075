"""The site stage: a corpus to a static, phone-first mkdocs-material site, published whole.

`build_site` (in `build`) is the entry point; `pages` and `render` make the HTML, `plan`
gathers every file, `mkdocs_site` is the only module that imports mkdocs, `publish` owns the
output folder.
"""
from .build import BuildFailed, BuildResult, build_site, find_config
from .mkdocs_site import RulekbPlugin
from .publish import BuildLocked, OutputRefused

__all__ = ["build_site", "find_config", "BuildFailed", "BuildResult", "BuildLocked", "OutputRefused", "RulekbPlugin"]
