"""The pages a judge reaches in one tap: home, the penalty quick reference, the Regular REL quick
reference, and the search tips (written from the abbreviations the search knows).

Both quick references are built from the documents themselves (the IPG's infraction sections, the
JAR's common issues) and print on one sheet. Pure functions of the corpus.
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from .. import kinds
from ..addresses import Addresses
from ..build_date import long_date
from ..model import Corpus, Document, DocumentInfo, Section, slug
from ..search.question import abbreviations, judges_words
from .pages import Page, dates_script
from .render import esc, linked_text, penalty_class

CATEGORY_ORDER = ["Game Play Error", "Tournament Error", "Unsporting Conduct"]
UPGRADE = re.compile(r"\bupgrad|\bdowngrad", re.I)
PENALTIES = "penalties.md"
REGULAR = "regular.md"


def home_page(corpus: Corpus, addresses: Addresses, older: dict[str, str],
              upcoming: Optional[dict[str, list[tuple[DocumentInfo, str, str]]]] = None) -> Page:
    """`older`: document id -> page path of each older (or upcoming) edition's reader; `upcoming`: kind ->
    its editions not in force yet, with the pages of what they change and of their preview."""
    out = ['<h1 id="rulekb">Magic rules</h1>',
           '<p class="rk-lead">The Comprehensive Rules, the Infraction Procedure Guide, the Magic Tournament Rules '
           'and Judging at Regular REL, cross-linked. Search by rule number (<code>704.5k</code>, '
           '<code>ipg 2.1</code>), '
           'words or judges\u2019 abbreviations.</p>']
    links = []
    if penalties_document(corpus):
        links.append(("penalties/", "Penalty quick reference", "every infraction, its penalty and what changes it"))
    if has_regular(corpus):
        links.append(("regular/", "Regular REL quick reference", "common errors and their fixes"))
    for kind in kinds.KINDS:            # each kind the home page lists, its current edition read here
        if kind.home and corpus.document(kind.id):
            links.append((f"{kind.id}/", kind.title, kind.home))
    links.append(("search-tips/", "Search tips", "numbers, phrases, abbreviations"))
    if older:
        links.append(("changes/", "What changed", "between the editions in this site"))
    out.append('<ul class="rk-quick">' + "".join(
        f'<li><a href="{href}"><strong>{esc(title)}</strong><span>{esc(note)}</span></a></li>'
        for href, title, note in links) + "</ul>")
    for kind in sorted(upcoming or {}, key=kinds.order):
        for info, changes, preview in upcoming[kind]:
            when = esc(long_date(info.edition or ""))
            out.append(f'<div class="rk-upcoming" role="note" data-effective="{esc(info.edition or "")}" '
                       f'data-preview="{esc(Addresses.url(preview))}" data-when="{when}"><p>A new edition of the '
                       f'{esc(info.title)} takes effect on <strong>{when}</strong> — '
                       f'<a href="{esc(Addresses.url(changes))}">what changes</a> · '
                       f'<a href="{esc(Addresses.url(preview))}">read it</a></p></div>' + dates_script(""))
    out.append('<h2 id="documents">Documents and editions</h2>')
    rows = []
    # newest first within each document: an upcoming edition, the current one, then the older ones
    for info in sorted(sorted(corpus.editions, key=lambda i: (i.edition or "", i.current), reverse=True),
                       key=lambda i: kinds.order(i.kind)):
        status = ["archived" if info.archived else "current"] if info.current else []
        if info.upcoming:
            status.append(f"takes effect {long_date(info.edition or '')}")
        if info.excerpt:
            status.append("excerpt")
        if not info.current and not info.excerpt and not info.upcoming:
            status.append("older edition")
        if not info.complete and not info.excerpt:
            status.append("incomplete")
        path = f"{info.id}/index.md" if info.current else older.get(info.id)
        name = f'<a href="{esc(Addresses.url(path))}">{esc(info.title)}</a>' if path else esc(info.title)
        rows.append(f'<tr><td>{name}</td><td><span class="rk-date">{esc(info.edition or "—")}</span></td>'
                    f'<td>{esc(", ".join(status))}</td></tr>')
    out.append('<div class="rk-table"><table class="rk-editions"><thead><tr><th scope="col">Document</th>'
               '<th scope="col">Effective</th><th scope="col">Status</th></tr></thead>'
               f'<tbody>{"".join(rows)}</tbody></table></div>')
    return Page("index.md", "Home", "".join(out), description="Magic: The Gathering tournament rules reference")


def penalties_page(ipg: Document, addresses: Addresses, notice: str = "",
                   fix: Optional[Callable[[Section], str]] = None) -> Page:
    """Every infraction and its penalty, by category; under each, its fix in one line (`fix`: an infraction's
    fix in the ordinary case; its first sentence is shown) and what changes the penalty; printable on one
    sheet. `notice`: what the IPG's pages say of an edition not in force yet."""
    path = PENALTIES
    sections = {section.id: section for section in ipg.sections}
    groups: dict[str, list] = {}
    for penalty in ipg.penalties:
        groups.setdefault(penalty.category, []).append(penalty)
    order = sorted(groups, key=lambda category: next(
        (i for i, name in enumerate(CATEGORY_ORDER) if name.lower() in category.lower()), 9))
    out = ['<h1 id="penalties">Penalty quick reference</h1>',
           f'<p class="rk-edition">From the Infraction Procedure Guide effective <span class="rk-date">'
           f'{esc(ipg.info.edition or "")}</span>. Each row links to its infraction; its fix and what changes its '
           f'penalty are under it.</p>', notice,
           '<nav class="rk-chips" aria-label="Categories">' + "".join(
               f'<a href="#{esc(slug(category))}">{esc(plural(category))}</a>' for category in order) + '</nav>']
    for category in order:
        out.append(f'<h2 id="{esc(slug(category))}">{esc(plural(category))}</h2>')
        repeat = _category_rule(ipg, groups[category], sections)
        if repeat:
            out.append(f'<p class="rk-repeat-rule">{esc(repeat)}</p>')
        out.append('<table class="rk-penalties"><thead><tr><th scope="col">Infraction</th>'
                   '<th scope="col">Penalty</th></tr></thead><tbody>')
        for penalty in groups[category]:
            href = addresses.href(path, penalty.section) if penalty.section else None
            number = penalty.section.split(":", 1)[1] if penalty.section else ""
            name = f'<span class="rk-num-inline">{esc(number)}</span> {esc(penalty.infraction)}'
            cell = f'<a href="{esc(href)}">{name}</a>' if href else name
            out.append(f'<tr><td>{cell}</td><td><span class="rk-pen rk-pen-{penalty_class(penalty.penalty)}">'
                       f'{esc(penalty.penalty)}</span></td></tr>')
            infraction = sections[penalty.section].infraction if penalty.section in sections else None
            changes = ([("up", "Upgrade", text) for text in infraction.upgrades] +
                       [("down", "Downgrade", text) for text in infraction.downgrades]) if infraction else []
            said = first_sentence(fix(sections[penalty.section])) if fix and infraction else ""
            if said:
                changes.insert(0, ("fix", "Fix", said))
            if changes:   # folded: each category fits a phone's screen; open one to read what changes it
                lines = "".join(f'<span class="rk-{kind}"><strong>{label}:</strong> {esc(text)}</span>'
                                for kind, label, text in changes)
                labels = " and ".join(dict.fromkeys(label.lower() for _, label, _ in changes)).capitalize()
                out.append(f'<tr class="rk-path-row"><td colspan="2"><details class="rk-changes"><summary>{labels}'
                           f'</summary>{lines}</details></td></tr>')
        out.append("</tbody></table>")
    general = _general_rules(ipg, path, addresses)
    if general:
        out.append('<h2 id="upgrades">Upgrades and downgrades in general</h2>')
        out.append(general)
    return Page(path, "Penalty quick reference", '<div class="rk-sheet">' + "".join(out) + "</div>",
                description="Every IPG infraction, its penalty and what changes it")


def first_sentence(text: str) -> str:
    """The first sentence of a paragraph (a sentence ends at ". " before a capital), the whole if it is one."""
    match = re.search(r"(?<=[.!?])\s+(?=[A-Z\u2018\u201c(])", text.strip())
    return text.strip()[:match.start()] if match else text.strip()


def _category_rule(ipg: Document, penalties: list, sections: dict[str, Section]) -> Optional[str]:
    """The category section's rule for repeated offenses, if it has one."""
    first = next((sections[p.section] for p in penalties if p.section in sections), None)
    category = sections.get(first.parent) if first is not None and first.parent else None
    if category is None:
        return None
    return next((block.text for block in category.blocks if re.search(r"\bupgrad", block.text, re.I)), None)


def _general_rules(ipg: Document, path: str, addresses: Addresses) -> str:
    """The general rules that change a penalty, quoted from the IPG's general sections (not categories)."""
    url_for = lambda target: addresses.href(path, target)
    out = []
    for section in ipg.sections:
        if section.infraction or section.kind in ("appendix", "chapter") or section.level < 2 \
                or section.number.lower().startswith("appendix"):
            continue   # infractions and categories are shown above; Appendix B's change notes are no rules
        for index, block in enumerate(section.blocks):
            if UPGRADE.search(block.text):
                href = addresses.href(path, section.id)
                source = f' <a class="rk-src" href="{esc(href)}">({esc(section.number)})</a>' if href else ""
                refs = [ref for ref in section.refs if ref.block == index]
                out.append(f"<li>{linked_text(block.text, refs, url_for)}{source}</li>")
    return f'<ul class="rk-upgrades">{"".join(out)}</ul>' if out else ""


def plural(category: str) -> str:
    return category if category.endswith("s") or category.lower().endswith("conduct") else category + "s"


def penalties_document(corpus: Corpus) -> Optional[Document]:
    """The current document listing the infractions and their penalties (the IPG), if one is read."""
    return next((document for document in corpus.documents
                 if document.info.current and not document.info.archived and document.penalties), None)


def regular_document(corpus: Corpus) -> Optional[Document]:
    """The current document of Regular REL's common issues and their fixes (the JAR), if one is read."""
    return next((document for document in corpus.documents if document.info.current and not document.info.archived
                 and any(section.kind == "issue" for section in document.sections)), None)


def has_regular(corpus: Corpus) -> bool:
    return regular_document(corpus) is not None


def regular_page(jar: Document, addresses: Addresses) -> Page:
    """Judging at Regular REL as a quick reference: each common error and its fix, then the other sections."""
    path = REGULAR
    url_for = lambda target: addresses.href(path, target)
    out = ['<h1 id="regular">Regular REL quick reference</h1>',
           f'<p class="rk-edition">From Judging at Regular REL effective <span class="rk-date">'
           f'{esc(jar.info.edition or "")}</span>. Most events run at Regular REL: fix the game, educate, move on.</p>']
    issues = [section for section in jar.sections if section.kind == "issue"]
    out.append('<table class="rk-regular"><thead><tr><th scope="col">Error</th><th scope="col">Fix</th></tr>'
               '</thead><tbody>')
    for issue in issues:
        href = addresses.href(path, issue.id)
        name = f'<a href="{esc(href)}">{esc(issue.title)}</a>' if href else esc(issue.title)
        fix = " ".join(linked_text(block.text, [ref for ref in issue.refs if ref.block == index], url_for)
                       for index, block in enumerate(issue.blocks))
        out.append(f"<tr><td>{name}</td><td>{fix}</td></tr>")
    out.append("</tbody></table>")
    for section in jar.sections:
        if section.kind != "section" or any(issue.parent == section.id for issue in issues) or not section.blocks:
            continue
        href = addresses.href(path, section.id)
        out.append(f'<h2 id="{esc(slug(section.title))}"><a href="{esc(href)}">{esc(section.title)}</a></h2>' if href
                   else f'<h2 id="{esc(slug(section.title))}">{esc(section.title)}</h2>')
        items = [block for block in section.blocks if block.kind == "bullet"]
        text = [block for block in section.blocks if block.kind != "bullet"]
        if items:
            out.append('<ul class="rk-list">' + "".join(f"<li>{esc(block.text)}</li>" for block in items) + "</ul>")
        out.extend(f"<p>{esc(block.text)}</p>" for block in text)
    return Page(path, "Regular REL quick reference", '<div class="rk-sheet">' + "".join(out) + "</div>",
                description="Judging at Regular REL: common errors and their fixes")


def search_tips_page(corpus: Corpus, addresses: Addresses) -> Page:
    """How to search, with every abbreviation and judges' word the search knows (the same tables it reads)."""
    rows = "".join(f"<tr><td><code>{esc(key.upper())}</code></td><td>{esc(' / '.join(meanings))}</td></tr>"
                   for key, meanings in sorted(abbreviations().items()))
    words, levels = judges_words()

    def cited(section_id: str) -> str:
        href = addresses.href("search-tips.md", section_id)
        label = section_id.replace(":", " ").upper().replace("APPENDIX-", "appendix ")
        return f'<a href="{esc(href)}">{esc(label)}</a>' if href else esc(label)

    said_rows = "".join(
        f"<tr><td>{esc(', '.join(entry.said))}</td><td>{esc(' / '.join(entry.means))}</td>"
        f"<td>{cited(entry.cites)}: \u201c{esc(entry.passage)}\u201d</td></tr>" for entry in words)
    level_rows = "".join(
        f"<li><code>{esc(entry.said[0])}</code> (or {esc(', '.join(entry.said[1:]))}): "
        f"{esc(kinds.title(entry.prefers))} first</li>"
        for entry in levels)
    body = (
        '<h1 id="search-tips">Search tips</h1>'
        '<p>The search (the magnifier at the top, or the <kbd>/</kbd> key) finds rules by number, by words and by '
        'the abbreviations judges use. Each result is one rule; tap it to land on it.</p>'
        '<h2 id="numbers">Rule numbers</h2><ul class="rk-list">'
        '<li><code>704.5k</code>, <code>cr 704.5k</code>, <code>rule 704.5k</code>: a Comprehensive Rules subrule. '
        'Press <kbd>Enter</kbd> to go straight to it.</li>'
        '<li><code>ipg 2.1</code>, <code>mtr 4.3</code>, <code>mtr section 4.3</code>: a section of that document.</li>'
        '<li>A number that does not exist is said so, with the nearest ones.</li></ul>'
        '<h2 id="words">Words</h2><ul class="rk-list">'
        '<li>Words find their rule: <code>two-headed giant life total</code>, <code>missed trigger</code>, '
        '<code>trample</code>. A keyword finds its rule before its glossary entry.</li>'
        '<li>Typos are corrected (<code>trampel</code> finds trample, and says so); a word being typed counts for '
        'the words it starts.</li>'
        '<li>Naming a document narrows the search to it: <code>mtr slow play</code>.</li></ul>'
        '<h2 id="own-words">In your own words</h2><p>Describe what happened: <code>my opponent showed up after '
        'the round began</code>, <code>someone watching gave him advice</code>, <code>my opponent took back his '
        'attack</code>, <code>he drew an extra card at FNM</code>. An infraction comes with its penalty and the '
        'first sentence of its remedy, a Regular REL situation with its fix. Where people\u2019s words are not '
        'the documents\u2019, the search also looks for the '
        'documents\u2019 words below, each resting on the passage quoted.</p>'
        f'<p>Say the level to put its document first:</p><ul class="rk-list">{level_rows}</ul>'
        f'<div class="rk-table"><table class="rk-judges-words"><thead><tr><th scope="col">You say</th>'
        f'<th scope="col">The documents say</th><th scope="col">Where</th></tr></thead><tbody>{said_rows}</tbody>'
        '</table></div>'
        f'<h2 id="abbreviations">Abbreviations</h2><div class="rk-table"><table class="rk-abbreviations"><thead><tr>'
        f'<th scope="col">Written</th><th scope="col">Searched as</th></tr></thead><tbody>{rows}</tbody></table></div>'
        '<h2 id="offline">Offline</h2><p>Once the site has been opened, its documents and its search are saved on '
        'the phone and keep working when the venue\u2019s wifi does not.</p>')
    return Page("search-tips.md", "Search tips", body, description="How to search the rules")
