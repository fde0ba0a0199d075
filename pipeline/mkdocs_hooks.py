"""mkdocs loads this file by path (see `hooks:` in mkdocs.yml); the hooks themselves live in pipeline.site."""
from pipeline.site import (on_config, on_files, on_page_content, on_page_context,  # noqa: F401
                           on_post_build, on_serve)
