"""A long text in which many pieces are looked for, mostly in the order they stand in it."""
from __future__ import annotations


class OrderedText:
    """A text where `in` tells whether a piece occurs in it, as `in` on the text does: each piece is looked for
    from where the one before was found, then before that. A source's lines looked for in what a parse made of
    it come mostly in its order: found a little further on, not by scanning megabytes for every line."""

    def __init__(self, text: str):
        self.text = text
        self.at = 0

    def __contains__(self, wanted: str) -> bool:
        found = self.text.find(wanted, self.at)
        if found < 0:
            found = self.text.find(wanted, 0, self.at + len(wanted))
        if found < 0:
            return False
        self.at = found
        return True
