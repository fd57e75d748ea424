"""The fast reply reader (mailer.reply_reader) reads every body exactly as mail-parser-reply itself does.

mailer.reply_reader skips each of the library's regexes when a cheap test shows the text holds nothing it
could match. The guards are proved here: every text a regex matches in passes its guard, and the whole
reading (replies, ``text`` and ``written``) equals the library's own, for bodies with and without
quotes, signatures, disclaimers and quote headers in every language read, top- and bottom-posted.
"""
from __future__ import annotations

import re
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mailparser_reply.parser import EmailMessage as ReplyText

from mailer.message import body_text
from mailer.reply_reader import (
    _SEPARATOR_START, _WROTE, _folded, _may_hold_disclaimer, _may_hold_header, _may_hold_signature, _ReplyText, new_text,
    read_reply, strip_quotes, written_text,
)

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
CORPUS = sorted((Path(__file__).parent.parent / "corpus").glob("*.eml"))

WORDS = ["the", "Empire", "Proposal", "Area: Rules", "Raise section 3", "Accept 3", "because", "mail", "email",
         "e-mail", "--", "__", "-_", "-----", ">", ">>", "*", "/Anna", ":", "To:", "From:", "Cc:", "De :",
         "\u00c0 :", "Von:", "Datum:", "Thanks,", "Best,", "regards,", "Gr\u00fc\u00dfe", "Gruss", "Mvh",
         "cordialement", "wrote:", "schrieb", "a \u00e9crit", "escribi\u00f3:", "schreef:", "skrev",
         "ha scritto:", "Sent from my", "Warning:", "CAUTION:", "Hinweis:", "caf\u00e9", "\u2014", " ", "  "]
HEADERS = [
    "On Mon, 5 Jan 2026 at 10:00, Bob <bob@x.test> wrote:",
    "On Mon, 5 Jan 2026 at 10:00, Bob <bob@x.test>\nwrote:",
    "Am 05.01.2026 um 10:00 schrieb Bob <bob@x.test>:",
    "Le lun. 5 janv. 2026 \u00e0 10:00, Bob <bob@x.test> a \u00e9crit :",
    "El lun, 5 ene 2026 a las 10:00, Bob (<bob@x.test>) escribi\u00f3:",
    "> El lun, 5 ene 2026 a las 10:00, Bob (<bob@x.test>)  escribi\u00f3:",
    "Op ma 5 jan. 2026 om 10:00 schreef Bob <bob@x.test>:",
    "Op 5 jan. 2026 om 10:00 Bob <bob@x.test> schreef:",
    "Den 5 jan. 2026 kl. 10:00 skrev Bob <bob@x.test>:",
    "m\u00e5n 5 jan. 2026 kl. 10:00 skrev\nBob <bob@x.test>:",
    "Il giorno lun 5 gen 2026 alle ore 10:00 Bob <bob@x.test> ha scritto:",
    "From: Bob <bob@x.test>\nSent: Monday, January 5, 2026 10:00 AM\nTo: ths@imperial.test\nSubject: Proposal: X",
    "*From:* Bob <bob@x.test>\n*Sent:* Monday\n*To:* ths@imperial.test",
    "> From: Bob\n> Date: Monday\n> Subject: Re: X",
    "Von: Bob <bob@x.test>\nGesendet: Montag, 5. Januar 2026 10:00\nAn: ths@imperial.test\nBetreff: Antrag",
    "De : Bob <bob@x.test>\nEnvoy\u00e9 : lundi 5 janvier 2026 10:00\n\u00c0 : ths@imperial.test\nObjet : X",
    "De: Bob\nEnviado: lunes\nPara: ths@imperial.test\nAsunto: X",
    "Van: Bob\nVerzonden: maandag\nAan: ths@imperial.test\nOnderwerp: X",
    "Fr\u00e5n: Bob\nSkickat: m\u00e5ndag\nTill: ths@imperial.test\n\u00c4mne: X",
    "Da: Bob\nInviato: luned\u00ec\nA: ths@imperial.test\nOggetto: X",
    "-----Original Message-----\nFrom: Bob\nSent: Monday",
    "----- Original Message -----",
]
SIGNATURES = ["-- \nAlice", "--\nAlice\nImperial Nomic", "__\nAlice", "Sent from my iPhone", "Get Outlook for iOS",
              "Gesendet von meinem iPad", "Envoy\u00e9 depuis mon iPhone", "Enviado desde mi m\u00f3vil",
              "Verzonden vanaf mijn iPhone", "Skickat fr\u00e5n min iPhone", "Inviato da iPhone",
              "Best regards,\nAlice", "Thanks,\nAlice", "Mit freundlichen Gr\u00fc\u00dfen\nAlice",
              "Viele Gr\u00fc\u00dfe\nAlice", "Cordialement,\nAlice", "Saludos,\nAlice",
              "Met vriendelijke groet,\nAlice", "Med v\u00e4nliga h\u00e4lsningar\nAlice", "/Anna",
              "Cordiali saluti\nAlice", "\n\n" + "_" * 32 + "\nAlice", "\n\n -" + "-" * 40]
DISCLAIMERS = ["CAUTION: This email originated from outside the organisation.",
               "Disclaimer: this mail and its attachments are confidential.",
               "Wichtiger Hinweis: Diese E-Mail ist vertraulich.", "Aviso: este correo (mail) es privado."]
# Letters a case-insensitive regex takes for others: dotless and dotted i, long s, the Kelvin sign.
LOOKALIKES = [("i", "\u0131"), ("I", "\u0130"), ("s", "\u017f"), ("k", "\u212a"), ("S", "\u017f")]

line = st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join)
prose = st.lists(line, min_size=1, max_size=4).map("\n".join)
quoted = st.tuples(st.sampled_from(["> ", ">", "> > ", " > "]), prose).map(
    lambda qp: "\n".join(qp[0] + ln for ln in qp[1].split("\n")))
block = st.one_of(prose, quoted, st.sampled_from(HEADERS), st.sampled_from(SIGNATURES),
                  st.sampled_from(DISCLAIMERS), st.just(""))
spelling = st.one_of(st.just(lambda s: s), st.sampled_from([str.upper, str.lower, str.swapcase]),
                     st.sampled_from(LOOKALIKES).map(lambda pair: lambda s: s.replace(*pair)))


@st.composite
def bodies(draw: st.DrawFn) -> str:
    """A mail body: blocks of new text, quote headers, quoted text, signatures and disclaimers in any
    order (top- and bottom-posting, interleaved), in any case, with CRLF or LF line ends."""
    blocks = draw(st.lists(block, max_size=6))
    body = draw(st.sampled_from(["\n", "\n\n"])).join(blocks)
    return draw(spelling)(body).replace("\n", draw(st.sampled_from(["\n", "\r\n", "\n  "])))


LIBRARY = ReplyText(text="", languages=["en", "de", "fr", "es", "nl", "sv", "it"], keep_hyphen_lists=True)


def library_reading(text: str) -> ReplyText:
    """The reference: mail-parser-reply itself, every regex built for the message and run."""
    return ReplyText(text=text, languages=["en", "de", "fr", "es", "nl", "sv", "it"], keep_hyphen_lists=True).read()


def assert_read_alike(body: str) -> None:
    fast, slow = read_reply(body), library_reading(body)
    assert fast.text == slow.text
    assert ([(r.content, r.headers, r.signatures, r.disclaimers) for r in fast.replies]
            == [(r.content, r.headers, r.signatures, r.disclaimers) for r in slow.replies])
    assert new_text(body) == new_text(body, slow)
    assert written_text(body) == written_text(body, slow)


@settings(max_examples=600, **SETTINGS)
@given(bodies())
def test_every_body_is_read_as_the_library_reads_it(body: str):
    assert_read_alike(body)


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_corpus_bodies_are_read_as_the_library_reads_them(path: Path):
    assert_read_alike(body_text(message_from_bytes(path.read_bytes(), policy=policy.compat32)))


@settings(max_examples=600, **SETTINGS)
@given(bodies())
def test_a_guard_passes_every_text_its_regex_matches_in(body: str):
    """The lemma the fast path rests on, for the raw body and for the text the library searches."""
    for text in (body, _ReplyText(text=body).text):
        for guarded in (_ReplyText.HEADER_REGEX, _ReplyText.DISCLAIMERS_REGEX, _ReplyText.SIGNATURE_REGEX):
            assert guarded.regex.search(text) is None or guarded.possible(text)


def test_folding_keeps_every_letter_a_case_insensitive_regex_takes_for_a_guard_word():
    """Over all of Unicode: a character ``re.I`` matches to a letter of a guard word folds to that letter."""
    everything = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)
    folded = _folded(everything)
    assert len(folded) == len(everything)
    for letter in set("".join([*_WROTE.values(), "mail"])):
        assert letter == _folded(letter)
        for m in re.finditer(re.escape(letter), everything, re.I):
            assert folded[m.start()] == letter, (letter, m[0])


def test_ordinary_mail_takes_the_fast_path():
    """A Proposal with areas, requests and colons but no quote, signature or disclaimer runs none of
    the library's regexes (the point of the guards: ~5x faster parsing)."""
    body = ("Whereas the Empire thrives on order: every citizen is heard before the Emperor speaks.\n\n"
            "Area: Rules\nRaise section 3\nRotate left\n\nThe Scribe keeps the record - faithfully.\n")
    text = _ReplyText(text=body).text
    assert not (_may_hold_header(text) or _may_hold_disclaimer(text) or _may_hold_signature(text))
    assert _SEPARATOR_START.search(text) is None  # (nor the library's separator regex, normalizing it)


# Pieces of the rewritten parts of the regexes (mailer.reply_reader._linear): the words that start and end a
# "wrote" header, blanks of every kind around line breaks, and what starts a signature.
REGEX_PIECES = ["On ", "on", "Am ", "schrieb ", "Den ", "skrev ", "Il ", "ha scritto:", "Op ", "schreef:",
                "wrote:", ":", "x", "Bob", " ", "  ", "\t", "\r", "\x0b", "\u00a0", "\n", "\n\n", "> ", ">",
                "--", "-", "_" * 32, "Sent from my", "Best regards", "Thanks,", "/Anna", "From:", "To:", "De :",
                "*", "* ", "**", "> ", ">  ", "De ", "Objet :", "\u00c0 :"]


@settings(max_examples=1500, **SETTINGS)
@given(st.lists(st.sampled_from(REGEX_PIECES), max_size=24).map("".join))
def test_the_linear_regexes_find_what_the_librarys_find(text: str):
    """The header and signature regexes, rewritten to run in linear time, match where the library's match,
    with the same groups, on the raw text and on the text the library searches."""
    for ours, theirs in ((_ReplyText.HEADER_REGEX.regex, LIBRARY.HEADER_REGEX),
                         (_ReplyText.SIGNATURE_REGEX.regex, LIBRARY.SIGNATURE_REGEX)):
        for t in (text, _ReplyText(text=text).text):
            assert ([(m.span(), m.groups()) for m in ours.finditer(t)]
                    == [(m.span(), m.groups()) for m in theirs.finditer(t)])


LONG = "x" * 99_000
# A line of 99,000 characters that almost makes a quote header or a signature, and what is read as new text
# (its quoted lines dropped) and as written when it is ("Accept 1") and when it is not a header.
ATTACKS = {
    "wrote header": (f"On {LONG}\nhello\nwrote:", True),  # "On", a line, a line, "wrote:": 33 s at 32,000
    "no wrote header": (f"On {LONG}\nhello\nthere\nwrote:", False),  # one line too many
    "schrieb header": (f"Am x schrieb {LONG}\nhello:", True),
    "no schrieb header": (f"Am x schrieb {LONG}\nhello\nthere:", False),
    "blanks after a signature's dash": ("x\n\n-" + " " * 99_000 + "x", False),  # 0.25 s at 4,000 blanks
    "stars after From:": ("From:" + "* " * 49_500 + "b\nx", False),  # 12.8 s at 4,000 stars
    "stars after From:, To: below": ("From:" + "* " * 49_500 + "b\nTo: x", True),
    "quote marks before From:": ("> " * 49_500 + "From: b\nx", False),  # 0.7 s
    "quote marks before From:, To: below": ("> " * 49_500 + "From: b\n> To: x", True),
}


@pytest.mark.parametrize("attack, header", ATTACKS.values(), ids=ATTACKS.keys())
def test_a_long_line_that_almost_makes_a_header_or_signature_is_read_as_any_other(attack: str, header: bool):
    """Read in milliseconds where the library's own regexes backtrack for seconds or minutes (quadratic in
    the line), with the library's reading: the command above is read, and the line is either a quote's
    header (the rest is quoted) or text like any other."""
    body = f"Accept 1\n{attack}\n"
    reading = read_reply(body)
    assert new_text(body, reading) == ("Accept 1" if header else strip_quotes(body).strip())
    assert written_text(body, reading) == ("Accept 1" if header else body.strip())
