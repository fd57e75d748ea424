"""Quoted text is never obeyed, whatever the client's quote header (issue 26).

A voter answers "FOR 1" above (or, where the client bottom-posts, below) a quoted message holding
"AGAINST 1". The quote is written as 14 mail clients write it (Gmail, iOS's two-line header, Apple
Mail, Thunderbird, K-9, Yahoo, ProtonMail, mutt, Outlook desktop, Outlook with names only, Outlook on
the web, Outlook's "Original Message" block, a bare "Original Message" line and a bare underscore
line), in every language mail-parser-reply knows and in Portuguese and Russian, as plain text with the
quoted lines marked "> " and unmarked, and as HTML the way each client nests it. In every one the
game reads the voter's FOR 1 alone, and quotes none of the quoted lines back as not understood.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Callable

import pytest

from engine.ruleset import ruleset_for
from mailer.grammar import Grammar
from mailer.message import parse

VOTES = Grammar(ruleset_for("blognomic").commands)
ALICE, ALICE_NAME, GAME = "alice@example.test", "Alice Example", "game@nomic.test"


@dataclass(frozen=True)
class Language:
    """How a language's mail clients write a quote's header."""
    wrote: str  # "On {date}, {who} wrote:" (Gmail's, the model most clients copy)
    labels: tuple[str, str, str, str]  # Outlook's From, Sent, To, Subject
    sent: str  # a date as Outlook writes it in that language
    original: str  # "Original Message"
    reply: str  # the reply prefix of a subject ("RE", "AW", ...)


LANGUAGES = {
    "en": Language("On {date}, {who} wrote:", ("From", "Sent", "To", "Subject"),
                   "Monday, January 5, 2026 10:00 AM", "Original Message", "RE"),
    "de": Language("Am {date} schrieb {who}:", ("Von", "Gesendet", "An", "Betreff"),
                   "Montag, 5. Januar 2026 10:00", "Urspr\u00fcngliche Nachricht", "AW"),
    "cs": Language("{date} odes\u00edlatel {who} napsal:", ("Od", "Odesl\u00e1no", "Komu", "P\u0159edm\u011bt"),
                   "pond\u011bl\u00ed 5. ledna 2026 10:00", "P\u016fvodn\u00ed zpr\u00e1va", "RE"),
    "da": Language("{date} skrev {who}:", ("Fra", "Sendt", "Til", "Emne"),
                   "5. januar 2026 10:00", "Oprindelig meddelelse", "SV"),
    "es": Language("El {date}, {who} escribi\u00f3:", ("De", "Enviado el", "Para", "Asunto"),
                   "lunes, 5 de enero de 2026 10:00", "Mensaje original", "RE"),
    "fr": Language("Le {date}, {who} a \u00e9crit :", ("De\u00a0", "Envoy\u00e9\u00a0", "\u00c0\u00a0", "Objet\u00a0"),
                   "lundi 5 janvier 2026 10:00", "Message d'origine", "RE"),
    "it": Language("Il giorno {date} {who} ha scritto:", ("Da", "Inviato", "A", "Oggetto"),
                   "luned\u00ec 5 gennaio 2026 10:00", "Messaggio originale", "R"),
    "ja": Language("{date} {who}:", ("\u5dee\u51fa\u4eba", "\u9001\u4fe1\u65e5\u6642", "\u5b9b\u5148", "\u4ef6\u540d"),
                   "2026\u5e741\u67085\u65e5 10:00", "\u5143\u306e\u30e1\u30c3\u30bb\u30fc\u30b8", "RE"),
    "ko": Language("{date}, {who}\ub2d8\uc774 \uc791\uc131:",
                   ("\ubcf4\ub0b8 \uc0ac\ub78c", "\ubcf4\ub0b8 \ub0a0\uc9dc", "\ubc1b\ub294 \uc0ac\ub78c", "\uc81c\ubaa9"),
                   "2026\ub144 1\uc6d4 5\uc77c \uc6d4\uc694\uc77c \uc624\uc804 10:00", "\uc6d0\ubcf8 \uba54\uc2dc\uc9c0", "RE"),
    "nl": Language("Op {date} schreef {who}:", ("Van", "Verzonden", "Aan", "Onderwerp"),
                   "maandag 5 januari 2026 10:00", "Oorspronkelijk bericht", "RE"),
    "pl": Language("{date} {who} napisa\u0142(a):", ("Od", "Wys\u0142ano", "Do", "Temat"),
                   "poniedzia\u0142ek, 5 stycznia 2026 10:00", "Oryginalna wiadomo\u015b\u0107", "Odp"),
    "sv": Language("Den {date} skrev {who}:", ("Fr\u00e5n", "Skickat", "Till", "\u00c4mne"),
                   "den 5 januari 2026 10:00", "Ursprungligt meddelande", "SV"),
    "zh": Language("{who} \u4e8e{date}\u5199\u9053\uff1a", ("\u53d1\u4ef6\u4eba", "\u53d1\u9001\u65f6\u95f4", "\u6536\u4ef6\u4eba", "\u4e3b\u9898"),
                   "2026\u5e741\u67085\u65e5 10:00", "\u539f\u59cb\u90ae\u4ef6", "\u7b54\u590d"),
    "pt": Language("Em {date}, {who} escreveu:", ("De", "Enviado", "Para", "Assunto"),
                   "segunda-feira, 5 de janeiro de 2026 10:00", "Mensagem original", "RE"),
    "ru": Language("{date}, {who} \u043d\u0430\u043f\u0438\u0441\u0430\u043b(\u0430):",
                   ("\u041e\u0442", "\u041e\u0442\u043f\u0440\u0430\u0432\u043b\u0435\u043d\u043e", "\u041a\u043e\u043c\u0443", "\u0422\u0435\u043c\u0430"),
                   "5 \u044f\u043d\u0432\u0430\u0440\u044f 2026 \u0433. 10:00", "\u0418\u0441\u0445\u043e\u0434\u043d\u043e\u0435 \u0441\u043e\u043e\u0431\u0449\u0435\u043d\u0438\u0435", "RE"),
}
TOPIC = "Proposal 1: Cake for all"
ADDRESSED = f"{ALICE_NAME} <{ALICE}>"


def wrote(lang: Language, date: str, who: str = ADDRESSED) -> str:
    return lang.wrote.format(date=date, who=who)


def outlook_block(lang: Language, addresses: bool = True) -> list[str]:
    frm, sent, to, subject = lang.labels
    return [f"{frm}: {ADDRESSED if addresses else ALICE_NAME}", f"{sent}: {lang.sent}",
            f"{to}: {f'Humble Scribe <{GAME}>' if addresses else 'Humble Scribe'}", f"{subject}: {TOPIC}"]


def two_lines(lang: Language) -> list[str]:
    """iOS's header, broken before the sender: "On Mon, 5 Jan 2026 at 10:00,\\nAlice <a@b> wrote:"."""
    first, _, rest = wrote(lang, "Mon, 5 Jan 2026 at 10:00", "\0").partition("\0")
    return [first.rstrip(), ADDRESSED + rest] if first.strip() else [ADDRESSED + rest]


# Each client's quote header as plain-text lines (the quoted message follows them).
CLIENTS: dict[str, Callable[[Language], list[str]]] = {
    "gmail": lambda lang: [wrote(lang, "Mon, 5 Jan 2026 at 10:00")],
    "ios_two_lines": two_lines,
    "apple_mail": lambda lang: [wrote(lang, "5 Jan 2026, at 10:00")],
    "thunderbird": lambda lang: [wrote(lang, "05/01/2026 10:00", ALICE_NAME)],
    "k9": lambda lang: [wrote(lang, "January 5, 2026 10:00:00 AM GMT+01:00")],
    "yahoo": lambda lang: [wrote(lang, "Monday, January 5, 2026, 10:00:00 AM GMT+1")],
    "protonmail": lambda lang: ["------- Original Message -------", wrote(lang, "Monday, January 5th, 2026 at 10:00")],
    "mutt": lambda lang: [wrote(lang, "Mon, Jan 05, 2026 at 10:00:00AM +0100", ALICE_NAME)],
    "outlook_desktop": outlook_block,
    "outlook_names_only": lambda lang: outlook_block(lang, addresses=False),
    "outlook_web": lambda lang: ["_" * 32, *outlook_block(lang)],
    "outlook_original_message": lambda lang: [f"-----{lang.original}-----", *outlook_block(lang)],
    "bare_original_message": lambda lang: [f"-----{lang.original}-----"],
    "bare_underscores": lambda lang: ["_" * 32],
}
QUOTED = ["AGAINST 1", "", "Alice"]


def mail(lang: Language, body: str, subtype: str = "plain") -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "Vera <vera@example.test>", GAME, f"{lang.reply}: {TOPIC}"
    msg["In-Reply-To"] = "<sub1.announcement.1.0f3a@nomic.test>"
    msg.set_content(body, subtype=subtype)
    return bytes(msg)


def plain_reply(lang: Language, header: list[str], marked: bool) -> str:
    quoted = [("> " + q).rstrip() if marked else q for q in QUOTED]
    return "\n".join(["FOR 1", "", *header, "", *quoted]) + "\n"


def esc(lines: list[str]) -> str:
    return "<br>\n".join(html.escape(ln) for ln in lines)


QUOTE_HTML = "<div dir=\"ltr\">AGAINST 1<br><br>Alice</div>"
OWN_HTML = "<div dir=\"ltr\">FOR 1</div>"


def outlook_html(header: list[str]) -> str:
    return (f"<div class=\"WordSection1\"><p class=\"MsoNormal\">FOR 1<o:p></o:p></p>"
            f"<p class=\"MsoNormal\"><o:p>&nbsp;</o:p></p>"
            f"<div style=\"border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm\">"
            f"<p class=\"MsoNormal\">{esc(header)}<o:p></o:p></p></div>"
            f"<p class=\"MsoNormal\">AGAINST 1<o:p></o:p></p><p class=\"MsoNormal\">Alice</p></div>")


def html_reply(client: str, header: list[str]) -> str:
    """The reply as the client writes it in HTML (generic: the header as lines, the quote unmarked)."""
    head = esc(header)
    body = {
        "gmail": f"{OWN_HTML}<br><div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">{head}<br></div>"
                 f"<blockquote class=\"gmail_quote\" style=\"margin:0px 0px 0px 0.8ex\">{QUOTE_HTML}</blockquote></div>",
        "ios_two_lines": f"{OWN_HTML}<div dir=\"ltr\"><br><blockquote type=\"cite\">{head}<br><br></blockquote></div>"
                         f"<blockquote type=\"cite\">{QUOTE_HTML}</blockquote>",
        "apple_mail": f"{OWN_HTML}<div><br><blockquote type=\"cite\"><div>{head}</div><br>{QUOTE_HTML}</blockquote></div>",
        "thunderbird": f"<p>FOR 1</p><div class=\"moz-cite-prefix\">{head}<br></div>"
                       f"<blockquote type=\"cite\" cite=\"mid:x@y\">{QUOTE_HTML}</blockquote>",
        "yahoo": f"<div class=\"ydp1\">{OWN_HTML}</div><div id=\"yahoo_quoted_77\" class=\"yahoo_quoted\">"
                 f"<div style=\"font-size:13px\"><div>{head}</div><div><br></div>{QUOTE_HTML}</div></div>",
        "protonmail": f"{OWN_HTML}<div class=\"protonmail_quote\">{head}<br>"
                      f"<blockquote class=\"protonmail_quote\" type=\"cite\">{QUOTE_HTML}</blockquote></div>",
        "outlook_desktop": outlook_html(header),
        "outlook_names_only": outlook_html(header),
        "outlook_web": f"{OWN_HTML}<div id=\"appendonsend\"></div><hr style=\"display:inline-block;width:98%\">"
                       f"<div id=\"divRplyFwdMsg\" dir=\"ltr\"><font face=\"Calibri\">{esc(header[1:])}</font>"
                       f"<div>&nbsp;</div></div>{QUOTE_HTML}",
    }.get(client, f"{OWN_HTML}<div><br></div>" + "".join(f"<div>{html.escape(ln)}</div>" for ln in header)
          + f"<div><br></div>{QUOTE_HTML}")
    return f"<html><body>{body}</body></html>"


def reading(raw: bytes) -> tuple[list[str], list[str]]:
    parsed = parse(raw)
    read = VOTES.read(parsed.subject, parsed.text, parsed.written)
    return [c.line for c in read.commands], read.not_understood


CASES = [(c, code) for c in CLIENTS for code in LANGUAGES]


@pytest.mark.parametrize("marked", [True, False], ids=["marked", "unmarked"])
@pytest.mark.parametrize("client,code", CASES, ids=[f"{c}-{code}" for c, code in CASES])
def test_a_quoted_vote_in_plain_text_is_not_read(client: str, code: str, marked: bool):
    lang = LANGUAGES[code]
    assert reading(mail(lang, plain_reply(lang, CLIENTS[client](lang), marked))) == (["FOR 1"], [])


@pytest.mark.parametrize("client,code", CASES, ids=[f"{c}-{code}" for c, code in CASES])
def test_a_quoted_vote_in_html_is_not_read(client: str, code: str):
    lang = LANGUAGES[code]
    assert reading(mail(lang, html_reply(client, CLIENTS[client](lang)), "html")) == (["FOR 1"], [])


@pytest.mark.parametrize("client", ["mutt", "thunderbird", "gmail", "apple_mail"])
@pytest.mark.parametrize("code", list(LANGUAGES))
def test_a_bottom_posted_vote_below_a_marked_quote_is_read(client: str, code: str):
    lang = LANGUAGES[code]
    body = "\n".join([*CLIENTS[client](lang), *("> " + q for q in QUOTED), "", "FOR 1"]) + "\n"
    assert reading(mail(lang, body)) == (["FOR 1"], [])
