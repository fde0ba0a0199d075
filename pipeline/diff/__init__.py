"""Pairs of editions -> what changed between them; editions of a document -> each rule's history.

`compare(old, new)` pairs sections across two editions (renumberings recognised) and says what
was added, removed, changed and renumbered; `word_diff` highlights words; `check_announced`
holds a change appendix against the comparison; `history` follows each rule through editions.
"""
from .announced import announced_changes, check_announced
from .compare import (
                      Change,
                      EditionDiff,
                      GlossaryChange,
                      GlossaryDiff,
                      Move,
                      compare,
                      compare_glossary,
                      diff_json,
                      mask_numbers,
                      section_text,
)
from .history import last_changed, rule_history
from .words import word_diff

__all__ = ["Change", "GlossaryChange", "GlossaryDiff", "Move", "EditionDiff", "compare", "compare_glossary",
           "diff_json", "mask_numbers", "section_text",
           "announced_changes", "check_announced", "last_changed", "rule_history", "word_diff"]
