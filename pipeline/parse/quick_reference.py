"""An IPG's invariant after parsing: each infraction has exactly one penalty, a known one, and Appendix A (the
penalty quick reference) gives each the same and names no other. Its result is Document.penalties.

Two independent signals: where one side is plainly an extraction artefact (a section's penalty missing or
garbled, Appendix A's known) the other repairs it, with a warning; a second penalty in a section is settled
by Appendix A where it agrees with one of them. Anything else broken is an error naming the file and line
(a warning where Appendix A and the sections name different infractions in an excerpt). It must not read
text: the parser recorded what Appendix A and the sections say (Document.penalty_evidence).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from ..distance import similarity
from ..model import ERROR, INFO, WARNING, AppendixRow, Document, Penalty, PenaltyEvidence, Problem, Section
from .common import broken_severity
from .penalties import (
    PENALTY_NAMES,
    contradicts,
    is_known_penalty,
    name_key,
    normalise_penalty,
    penalties_agree,
    singular,
)

NEARLY_THE_SAME_NAME = 0.75       # "Deck/Deck Problem" for "Deck Problem"


def settled_penalties(document: Document) -> Document:
    """The document with its infractions' penalties checked against Appendix A (and repaired where one side
    repairs the other), Document.penalties built from them, and the problems found."""
    settling = _Settling(document)
    penalties = settling.quick_reference()
    return replace(document, sections=tuple(settling.sections), penalties=tuple(penalties),
                   problems=document.problems + tuple(settling.problems))


class _Settling:
    def __init__(self, document: Document):
        self.info = document.info
        self.sections = list(document.sections)
        self.evidence = document.penalty_evidence or PenaltyEvidence()
        self.other_penalties: dict[str, list[tuple[str, int]]] = {}
        for second in self.evidence.second_penalties:
            self.other_penalties.setdefault(second.number, []).append((second.penalty, second.line))
        self.problems: list[Problem] = []

    def quick_reference(self) -> list[Penalty]:
        """A row per infraction section, each checked against its Appendix A row where the document has a quick
        reference, then the rows of Appendix A that name no section."""
        infractions = [section for section in self.sections if section.infraction]
        appendix = self.evidence.appendix_line is not None
        rows = list(self.evidence.rows)
        if appendix and not rows and infractions:
            self.invariant(self.evidence.appendix_line,
                           "Appendix A (penalty quick reference) has no row that could be read: "
                           "the infractions' penalties could not be checked against it")
            appendix = False
        matched = self.match_rows(infractions, rows)
        settled = [self.settle_penalty(section, matched.get(position), appendix)
                   for position, section in enumerate(infractions)]
        extra = []
        for row in rows:
            self.coverage(row.line, f"Appendix A lists {row.infraction!r} ({row.penalty}) but no infraction "
                                    f"section has that name")
            extra.append(Penalty(None, singular(row.group), row.infraction, normalise_penalty(row.penalty)))
        return [Penalty(s.id, s.infraction.category, s.infraction.name, s.infraction.penalty)
                for s in settled] + extra

    def match_rows(self, infractions: list[Section], rows: list[AppendixRow]) -> dict[int, AppendixRow]:
        """Appendix A's row of each infraction (by position): the row of the same name, else one whose name is
        nearly the same (noted). Matched rows are taken out of `rows`."""
        matched: dict[int, AppendixRow] = {}
        for position, section in enumerate(infractions):
            keys = {name_key(section.infraction.name), name_key(section.title),
                    name_key(f"{section.infraction.category} - {section.infraction.name}")}
            row = next((row for row in rows if name_key(row.infraction) in keys), None)
            if row is not None:
                rows.remove(row)
                matched[position] = row
        for position, section in enumerate(infractions):
            row = None if position in matched else _closest_row(section, rows)
            if row is not None:
                rows.remove(row)
                matched[position] = row
                self.problem(INFO, row.line, f"Appendix A calls infraction {section.number} {row.infraction!r} "
                                             f"(the section says {section.infraction.name!r})")
        return matched

    def settle_penalty(self, section: Section, row: Optional[AppendixRow], appendix: bool) -> Section:
        """The infraction's penalty, checked: a known one, the one Appendix A gives. A penalty the section lacks or
        that is no known penalty (an extraction artefact) is taken from Appendix A when Appendix A's is known and
        does not contradict it, with a warning; anything else is an error."""
        own = section.infraction.penalty
        where = f"infraction {section.number} {section.title}"
        if section.number in self.other_penalties:
            section = self.one_of_two(section, row)
            own = section.infraction.penalty
        if row is None and appendix:
            self.coverage(section.line, f"{where} is not in Appendix A (penalty quick reference)")
        if is_known_penalty(own):
            if row is not None:
                self.compare(section, row)
            return section
        listed = normalise_penalty(row.penalty) if row is not None else ""
        if is_known_penalty(listed) and not contradicts(own, listed):
            return self.take_from_appendix(section, row)
        said = f"; Appendix A (line {row.line}) says {row.penalty!r}" if row is not None else ""
        if not own:
            self.invariant(section.line, f"{where}: no penalty found{said}")
        else:
            self.invariant(section.line, f"{where}: {own!r} is not a known penalty "
                                         f"({', '.join(PENALTY_NAMES)}){said}")
        return section

    def one_of_two(self, section: Section, row: Optional[AppendixRow]) -> Section:
        """An infraction giving two different penalties (a PDF converter can put a penalty box in the wrong
        section) breaks its invariant: an error. Appendix A, where it agrees with one of them, says which to
        keep; else the first is kept."""
        first = section.infraction.penalty
        others = self.other_penalties[section.number]
        listed = normalise_penalty(row.penalty) if row is not None else ""
        agreeing = [value for value in (first, *(value for value, _ in others))
                    if is_known_penalty(listed) and penalties_agree(value, listed)]
        kept = agreeing[0] if agreeing else first
        for value, line in others:
            self.invariant(line, f"infraction {section.number} {section.title} gives two different penalties: "
                                 f"{first!r} and {value!r} (line {line}); "
                                 + (f"kept {kept!r}, as Appendix A (line {row.line}) gives" if agreeing
                                    else "kept the first"))
        if kept == first:
            return section
        return self.with_penalty(section, normalise_penalty(kept))

    def take_from_appendix(self, section: Section, row: AppendixRow) -> Section:
        """A section's missing or garbled penalty repaired from Appendix A's, and said so."""
        own, penalty = section.infraction.penalty, normalise_penalty(row.penalty)
        if not own:
            self.problem(WARNING, section.line, f"infraction {section.number} {section.title} gives no penalty of "
                                                f"its own: {penalty!r} taken from Appendix A (line {row.line})")
        else:
            self.problem(WARNING, section.line, f"penalty of {section.number} {section.title} taken from Appendix A "
                                                f"(line {row.line}): {penalty!r}; the section's {own!r} is not a "
                                                f"known penalty")
        return self.with_penalty(section, penalty)

    def with_penalty(self, section: Section, penalty: str) -> Section:
        repaired = replace(section, infraction=replace(section.infraction, penalty=penalty))
        self.sections[self.sections.index(section)] = repaired
        return repaired

    def compare(self, section: Section, row: AppendixRow) -> None:
        """A section's known penalty against its Appendix A row: a disagreement is an error."""
        own = section.infraction.penalty
        if not is_known_penalty(row.penalty):
            self.problem(WARNING, row.line, f"Appendix A gives {row.infraction!r} the penalty {row.penalty!r}, which "
                                            f"is not a known penalty: section {section.number}'s {own!r} is kept")
        elif not penalties_agree(own, row.penalty):
            self.invariant(row.line, f"Appendix A gives {row.infraction!r} the penalty {row.penalty!r} but section "
                                     f"{section.number} (line {section.line}) says {own!r}")

    def invariant(self, line: Optional[int], message: str) -> None:
        """A broken invariant of an IPG: an error (the parse stage marks a document with errors incomplete)."""
        self.problem(ERROR, line, message)

    def coverage(self, line: Optional[int], message: str) -> None:
        """Appendix A and the sections name different infractions: broken, unless the document is an excerpt."""
        severity = broken_severity(self.info)
        self.problem(severity, line, message + (" (an excerpt)" if severity == WARNING else ""))

    def problem(self, severity: str, line: Optional[int], message: str) -> None:
        self.problems.append(Problem(severity, self.info.source, line, message))


def _closest_row(section: Section, rows: list[AppendixRow]) -> Optional[AppendixRow]:
    """A row whose name is nearly the section's ("Deck/Deck Problem" for "Deck Problem")."""
    best, best_ratio = None, 0.0
    for row in rows:
        ratio = similarity(name_key(row.infraction), name_key(section.infraction.name))
        if ratio > best_ratio:
            best, best_ratio = row, ratio
    return best if best_ratio >= NEARLY_THE_SAME_NAME else None
