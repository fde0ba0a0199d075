"""mkdocs loads this file by path (see `hooks:` in mkdocs.yml); the hooks themselves live in pipeline.site."""
from pipeline.site import on_config, on_files, on_page_content, on_serve  # noqa: F401
