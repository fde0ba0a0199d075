"""The one module that talks to mkdocs: a plugin that feeds it the planned pages, and a build call.

Only documented interfaces are used: the plugin events (on_config, on_env, on_nav, on_files,
on_page_markdown, on_page_content, on_serve) and `mkdocs.commands.build.build`. Pages come in
as a `SitePlan` (HTML bodies, navigation, extra files); nothing generated is written into
docs/. Every title that reaches a template is escaped here (navigation, <title>, meta
description), since Material's templates print titles as they are. Moving off
mkdocs-material (end of life May 2027) means rewriting this module and the theme folder.
"""
from __future__ import annotations

import html
import logging
from pathlib import Path
from typing import Optional

from jinja2 import ChoiceLoader, FileSystemBytecodeCache, FileSystemLoader
from markupsafe import Markup
from mkdocs.commands.build import build as mkdocs_build
from mkdocs.config import config_options, load_config
from mkdocs.config.base import Config
from mkdocs.exceptions import Abort, ConfigurationError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File

from .. import cache
from . import icons
from .plan import SitePlan, plan_from_sources

THEME_DIR = Path(__file__).resolve().parent / "theme"


class SiteBuildError(Exception):
    """mkdocs could not build the site (its message says why)."""


class RulekbConfig(Config):
    sources = config_options.Type(str, default="sources")   # for `mkdocs serve` / `mkdocs build` run directly


class RulekbPlugin(BasePlugin[RulekbConfig]):
    """Registered as the mkdocs plugin "rulekb" (pyproject.toml entry point)."""

    def __init__(self):
        super().__init__()
        self.plan: Optional[SitePlan] = None     # given by `render`; else read from the sources option

    def on_config(self, config):
        if self.plan is None:
            sources = Path(self.config.sources)
            if not sources.is_absolute():
                sources = Path(config.config_file_path).parent / sources
            self.plan = plan_from_sources(sources)
        config.nav = self.plan.nav
        config.extra_css.append("assets/rulekb.css")
        config.extra_javascript.append(config_options.ExtraScriptValue("assets/rulekb.js"))
        config.extra_javascript[-1].defer = True
        config.extra_javascript.append(config_options.ExtraScriptValue("assets/offline.js"))   # the offline copy
        config.extra_javascript[-1].defer = True
        config.extra_javascript.append(config_options.ExtraScriptValue("assets/recent.js"))    # recent searches
        config.extra_javascript[-1].defer = True
        config.extra["rulekb"] = dict(self.plan.template_flags)
        config.theme["favicon"] = "assets/icons/favicon-32.png"      # drawn by the build (site/icons.py)
        return config

    def on_env(self, env, config, files):
        """The theme overrides (header, search box, scripts) come first, Material's templates after. The
        templates' compiled code is kept in the cache's generation (jinja's bytecode cache: checked against
        each template's source, written whole or not at all), so a build does not compile the same templates
        again (a fifth of a small site's build)."""
        env.loader = ChoiceLoader([FileSystemLoader(str(THEME_DIR)), env.loader])
        folder = _templates_folder()
        if folder is not None:
            env.bytecode_cache = FileSystemBytecodeCache(str(folder))
        return env

    def on_nav(self, nav, config, files):
        for item in _walk(nav.items):
            if item.title is not None:
                item.title = _escaped(item.title)
        return nav

    def on_files(self, files, config):
        for file in [file for file in files if _unused_theme_file(file.src_uri)]:
            files.remove(file)
        written = [file.src_uri for file in files.documentation_pages()]   # the project's own pages (docs/)
        for page in self.plan.pages.values():
            files.append(File.generated(config, page.path, content="---\nrulekb: generated\n---\n"))
        for path, content in self.plan.files.items():
            files.append(File.generated(config, path, content=content))
        name = str(config.site_name)
        files.append(File.generated(config, icons.MANIFEST, content=icons.manifest(
            name, name if len(name) <= 12 else name.split()[0], str(config.site_description or name))))
        config.nav = list(config.nav) + [path for path in sorted(written) if path not in self.plan.pages]
        return files

    def on_page_markdown(self, markdown, page, config, files):
        planned = self.plan.pages.get(page.file.src_uri)
        if planned is None:
            return markdown   # the project's own pages (docs/about.md): written by its maintainers, kept as written
        page.meta["title"] = _escaped(planned.title)
        page.title = page.meta["title"]
        if planned.description:
            page.meta["description"] = _escaped(planned.description)
        # the page in its other languages, for partials/languages.html (site-relative URLs)
        page.meta["rulekb_alternates"] = [(code, _site_url(path)) for code, path in planned.alternates]
        return ""   # Markdown never sees source text: the body is put in by on_page_content

    def on_page_content(self, html_body, page, config, files):
        planned = self.plan.pages.get(page.file.src_uri)
        if planned is None:
            return html_body
        return '<div class="rk-page">' + planned.body + "</div>"

    def on_serve(self, server, config, builder):
        server.watch(str(Path(config.config_file_path).parent / self.config.sources))
        return server


def _templates_folder() -> Optional[Path]:
    """Where the templates' compiled code is kept: in this code's generation of the cache (pruned with it); None
    where the cache cannot be written (the templates are then compiled, as without a cache)."""
    folder = cache.generation() / "templates"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


def _unused_theme_file(path: str) -> bool:
    """Material's scripts (its bundle, its lunr search and that search's languages) and the source maps of its
    files: no page loads them (the site's own scripts do what the pages need), so they are not published
    (2.5 MB, a fifth of them gzipped)."""
    return path.startswith("assets/javascripts/") or (path.startswith("assets/") and path.endswith(".map"))


def _escaped(text: str) -> Markup:
    """A title as safe HTML: templates print it raw, `| e` leaves it as it is."""
    return text if isinstance(text, Markup) else Markup(html.escape(str(text), quote=True))


def _site_url(path: str) -> str:
    """A page file's URL from the site's root ("zh/cr/702.md" -> "zh/cr/702/")."""
    if path == "index.md":
        return ""
    return path[:-len("index.md")] if path.endswith("/index.md") else path[:-3] + "/"


def _walk(items):
    for item in items:
        yield item
        yield from _walk(getattr(item, "children", None) or [])


def render(plan: SitePlan, config_file: Path, site_dir: Path) -> None:
    """Render `plan` with mkdocs into `site_dir` (which the caller owns)."""
    try:
        config = load_config(str(config_file), site_dir=str(site_dir), strict=True)
        plugin = config.plugins.get("rulekb")
        if plugin is None:
            raise SiteBuildError(f"{config_file} does not list the rulekb plugin (plugins: [rulekb])")
        plugin.plan = plan
        logging.getLogger("mkdocs").setLevel(logging.WARNING)
        mkdocs_build(config)
    except (Abort, ConfigurationError) as error:
        raise SiteBuildError(f"mkdocs could not build the site: {error}") from None
