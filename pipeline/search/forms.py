"""English verbs' irregular forms, for the index's analysis: "drew" and "drawn" are "draw".

Porter's stemmer joins "draws", "drawing" and "draw", but not "drew" or "drawn": a judge's "he drew an
extra card" then holds a word the infraction that says "draws four cards" never does, and a rare one,
which outweighs the others. The analyzer puts each form here back to its verb before stemming, for the
documents and the questions alike (the browser reads the resulting term from the exported vocabulary).
Forms that are the documents' own terms of art in another sense are left alone: "hidden" (a hidden zone),
"known" (known information), "given", "left", "found", "bound".
"""
from __future__ import annotations

_VERBS = """
arise arose arisen|awake awoke awoken|bear bore borne|beat beaten|become became|begin began begun|
bend bent|bite bit bitten|blow blew blown|break broke broken|bring brought|build built|buy bought|
catch caught|choose chose chosen|come came|deal dealt|dig dug|do did done|draw drew drawn|
drink drank drunk|drive drove driven|eat ate eaten|fall fell fallen|feed fed|feel felt|fight fought|
fly flew flown|forbid forbade forbidden|forget forgot forgotten|forgive forgave forgiven|freeze froze frozen|
get got gotten|give gave|go went gone|grow grew grown|hang hung|have had|hear heard|hide hid|hold held|
keep kept|know knew|lay laid|lead led|lend lent|lose lost|make made|mean meant|
meet met|mistake mistook mistaken|overtake overtook overtaken|pay paid|rethink rethought|ride rode ridden|
ring rang rung|rise rose risen|run ran|say said|see saw seen|seek sought|sell sold|send sent|shake shook shaken|
shine shone|shoot shot|show showed shown|shrink shrank shrunk|sing sang sung|sink sank sunk|sit sat|sleep slept|
slide slid|speak spoke spoken|spend spent|stand stood|steal stole stolen|stick stuck|sting stung|stink stank|
strike struck stricken|swear swore sworn|swing swung|take took taken|teach taught|tear tore torn|tell told|
think thought|throw threw thrown|understand understood|undo undid undone|wake woke woken|wear wore worn|
win won|withdraw withdrew withdrawn|write wrote written
"""

BASE_FORMS: dict[str, str] = {form: verb for group in _VERBS.split("|") for verb, *forms in [group.split()]
                              for form in forms if form != verb}
