#!/usr/bin/env python3
"""The café's agent over the agent endpoint contract: Python 3.11+, the standard library only.

    FAKE_MODEL=1 PORT=8080 python3 examples/http-agent-python/agent.py             # no model, no network
    OPENAI_API_KEY=sk-... MODEL=gpt-4o-mini python3 examples/http-agent-python/agent.py

One POST /agent per person message, answered {"replies": [...]}. It keeps each conversation's
history, acts on a messageId once, asks one model through any OpenAI-compatible Chat Completions
API with two tools (opening_hours, place_order), and shapes every reply for its channel. Every
place a port usually gets wrong is marked "PORTS:".
"""

import hmac
import itertools
import json
import os
import re
import sys
import threading
import time
import traceback
import unicodedata
import urllib.error
import urllib.request
from collections import OrderedDict
from http.client import HTTPException
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

PORT = int(os.environ.get("PORT", "8080"))
HOST = os.environ.get("HOST", "127.0.0.1")
TOKEN = os.environ.get("FLOW_FRAMEWORK_AGENT_TOKEN", "")
FAKE_MODEL = os.environ.get("FAKE_MODEL", "") == "1"
API_KEY = os.environ.get("OPENAI_API_KEY", "")
BASE_URL = os.environ.get("OPENAI_BASE_URL", "") or "https://api.openai.com/v1"
MODEL = os.environ.get("MODEL", "") or "gpt-4o-mini"
# The whole time one message may spend on the model, retries and tool rounds included: well
# under the 60 s the platform (and check-endpoint) waits for an answer.
BUDGET_SECONDS = float(os.environ.get("MODEL_BUDGET_SECONDS", "") or "20")

# PORTS: the contract promises 7,000,000-byte bodies (a 5 MB photo as base64). Many servers
# refuse far less by default (express.json() 100 kB, nginx 1 MB, Django 2.5 MB): check yours.
MAX_BODY_BYTES = 7_000_000
MAX_HISTORY = 40            # messages kept per conversation (user and assistant)
MAX_CONVERSATIONS = 1000    # the oldest conversation is dropped past this
MAX_ANSWERS = 200           # messageIds remembered per conversation, for redeliveries
MAX_TOOL_ROUNDS = 4

APOLOGY = "Sorry, I can't answer right now. Please try again in a minute."
FAKE_GREETING = "Hi! This is the café. We're open 7am to 6pm today. What can I get you?"
FAKE_CHOICES = ["Latte", "Cappuccino", "Tea"]

PERSONA = (
    "You are the assistant of a small café. You answer questions about the café, take orders "
    "for pickup and keep answers short and friendly. Use the opening_hours tool for today's "
    "hours. Before placing an order, confirm the items and the person's name, then call "
    "place_order and give the person the order id."
)

# What `check-endpoint limits CHANNEL --prompt` prints, byte for byte (a test compares them):
# regenerate them when the contract's limits change. A custom channel gets the web text.
CHANNEL_INSTRUCTIONS = {
    "whatsapp": (
        "You write the messages this agent sends on WhatsApp. WhatsApp renders *bold* (one * on "
        "each side) and code fences (```); it shows **bold**, # headings, [label](url) links and "
        "pipe tables as typed, so never write them. Keep each message under 700 characters, like "
        "a chat bubble; split a longer answer into short paragraphs separated by a blank line, "
        "each sent as its own message. A message over 4096 characters is not sent. Offer choices "
        "as buttons (at most 3), each label at most 20 characters, the question above them at "
        "most 1024 characters; more as a list of at most 10 rows, each row title at most 24 "
        "characters."
    ),
    "sms": (
        "You write the messages this agent sends on SMS. SMS shows plain text only: write no "
        "Markdown at all (**bold**, # headings, [label](url) links, pipe tables and code fences "
        "(```) are shown as typed). Aim for one SMS segment: at most 160 characters of plain "
        "text. One character outside the GSM-7 alphabet (such as — – ’ “ ” … • 😊) makes the "
        "whole message UCS-2, where a segment holds only 70: write straight quotes, a plain "
        "hyphen and three dots instead, and no emoji. A message over 1600 characters is not "
        "sent. SMS shows no buttons or lists: write the options as a numbered list and ask the "
        "person to answer with the number."
    ),
    "imessage": (
        "You write the messages this agent sends on iMessage. iMessage shows plain text only: "
        "write no Markdown at all (**bold**, # headings, [label](url) links, pipe tables and "
        "code fences (```) are shown as typed). Keep each message under 400 characters, like a "
        "chat bubble; split a longer answer into short paragraphs separated by a blank line, "
        "each sent as its own message. A message over 9999 characters is not sent. iMessage "
        "shows no buttons or lists: write the options as a numbered list and ask the person to "
        "answer with the number."
    ),
    "telegram": (
        "You write the messages this agent sends on Telegram. Telegram renders MarkdownV2: "
        "*bold* (one * on each side), [label](url) links and code fences (```); it shows "
        "**bold**, # headings and pipe tables as typed, so never write them. Keep each message "
        "under 900 characters, like a chat bubble; split a longer answer into short paragraphs "
        "separated by a blank line, each sent as its own message. A message over 4096 characters "
        "is not sent. Offer choices as buttons (at most 100), the question above them at most "
        "4096 characters; no lists: for more choices, a numbered list the person answers by "
        "number."
    ),
    "web": (
        "You write the messages this agent sends on Web chat. Web chat renders **bold**, # "
        "headings, [label](url) links, pipe tables and code fences (```). A message over 4096 "
        "characters is not sent. Offer choices as buttons (at most 10), each label at most 40 "
        "characters, the question above them at most 4096 characters; more as a list of at most "
        "50 rows."
    ),
}


def log(line):
    print(line, file=sys.stderr, flush=True)


def redact(text):
    """A text with the secrets taken out, for the log (an error body may echo a key)."""
    for secret in (TOKEN, API_KEY):
        if secret:
            text = text.replace(secret, "***")
    return text


# ----------------------------------------------------------------------------------------------
# The request: validated by hand against spec/request.schema.json.
# PORTS: a body that is not a request gets 400 naming the field, never a 5xx or a dropped
# connection; unknown fields anywhere are ignored (the contract adds fields over time: never
# refuse them, e.g. no DisallowUnknownFields, no extra="forbid"). `null` is not "left out": the
# schema refuses "choice": null, and so do we.
# ----------------------------------------------------------------------------------------------

CHANNEL_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")   # with fullmatch: `$` would let "web\n" in
BASE64 = re.compile(r"[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")
KINDS = ("image", "audio", "video", "document")


def string_problem(value, name, min_length=0, max_length=None):
    if not isinstance(value, str):
        return f"{name} must be a string"
    if len(value) < min_length:  # len() counts code points, as JSON Schema does
        return f"{name} must not be empty"
    if max_length is not None and len(value) > max_length:
        return f"{name} is {len(value)} characters long; at most {max_length}"
    return None


def object_problem(value, name, required):
    if not isinstance(value, dict):
        return f"{name} must be an object"
    missing = [field for field in required if field not in value]
    return f"{name}.{missing[0]} is required" if missing else None


def request_problem(body):
    """What is wrong with a request body, naming the field; None when it is a request."""
    problem = object_problem(body, "the body", ("conversationId", "messageId", "channel", "message"))
    if problem:
        return problem.replace("the body.", "")
    problem = (string_problem(body["conversationId"], "conversationId", 1, 200)
               or string_problem(body["messageId"], "messageId", 1, 200)
               or string_problem(body["channel"], "channel"))
    if problem:
        return problem
    if not CHANNEL_NAME.fullmatch(body["channel"]):
        return "channel must be whatsapp, sms, imessage, telegram, web or a name matching ^[a-z][a-z0-9_-]{0,31}$"
    message = body["message"]
    problem = object_problem(message, "message", ("text",)) or string_problem(message["text"], "message.text")
    if problem:
        return problem
    if "attachments" in message:
        if not isinstance(message["attachments"], list):
            return "message.attachments must be an array"
        for index, attachment in enumerate(message["attachments"]):
            where = f"message.attachments[{index}]"
            problem = (object_problem(attachment, where, ("kind", "mime", "name", "data"))
                       or string_problem(attachment["mime"], f"{where}.mime", 1)
                       or string_problem(attachment["name"], f"{where}.name")
                       or string_problem(attachment["data"], f"{where}.data"))
            if problem:
                return problem
            if attachment["kind"] not in KINDS:
                return f"{where}.kind must be one of {', '.join(KINDS)}"
            data = attachment["data"]
            if len(data) % 4 or not BASE64.fullmatch(data):
                return f"{where}.data must be base64 (RFC 4648, with padding)"
    if "choice" in message:
        choice = message["choice"]
        problem = (object_problem(choice, "message.choice", ("id", "title"))
                   or string_problem(choice["id"], "message.choice.id", 1)
                   or string_problem(choice["title"], "message.choice.title"))
        if problem:
            return problem
    if "replyTo" in message:
        quoted = message["replyTo"]
        problem = (object_problem(quoted, "message.replyTo", ("messageId", "from", "text"))
                   or string_problem(quoted["messageId"], "message.replyTo.messageId", 1)
                   or string_problem(quoted["text"], "message.replyTo.text"))
        if problem:
            return problem
        if quoted["from"] not in ("agent", "person"):
            return 'message.replyTo.from must be "agent" or "person"'
    return None


def reject_constant(name):
    raise ValueError(f"{name} is not JSON")  # Python's json takes NaN and Infinity; JSON does not


# ----------------------------------------------------------------------------------------------
# Conversations: history and the messageIds already acted on, in memory and bounded.
# ----------------------------------------------------------------------------------------------

class Conversation:
    def __init__(self):
        self.history = []               # {"role": "user" | "assistant", "content": str}
        self.answers = OrderedDict()    # messageId -> the replies given; None while in progress


CONVERSATIONS = OrderedDict()
LOCK = threading.Lock()               # one lock for all of it: held only for dict work, never across a model call


def begin(conversation_id, message_id):
    """The conversation, and the answer already given to this messageId (None: act on it now)."""
    with LOCK:
        conversation = CONVERSATIONS.pop(conversation_id, None) or Conversation()
        CONVERSATIONS[conversation_id] = conversation           # the most recent goes last
        while len(CONVERSATIONS) > MAX_CONVERSATIONS:
            CONVERSATIONS.popitem(last=False)
        # PORTS: platforms redeliver a message they saw no answer to (a timeout, a network
        # error). Act on a messageId once: a redelivery gets the first answer again, without the
        # model; a copy arriving while the first is still in progress gets [] (the first answer is
        # on its way). Mark it before the model call, not after, or both copies call the model.
        if message_id in conversation.answers:
            return conversation, list(conversation.answers[message_id] or []), list(conversation.history)
        conversation.answers[message_id] = None
        while len(conversation.answers) > MAX_ANSWERS:
            conversation.answers.popitem(last=False)
        return conversation, None, list(conversation.history)


def finish(conversation, message_id, replies, user_text, reply_text):
    with LOCK:
        conversation.answers[message_id] = replies
        conversation.history.append({"role": "user", "content": user_text})
        if reply_text:
            conversation.history.append({"role": "assistant", "content": reply_text})
        del conversation.history[:-MAX_HISTORY]


# ----------------------------------------------------------------------------------------------
# The model: Chat Completions, two tools, one retry, all within the budget.
# ----------------------------------------------------------------------------------------------

TOOLS = [
    {"type": "function", "function": {
        "name": "opening_hours", "description": "Today's opening hours of the café.",
        "parameters": {"type": "object", "properties": {}}}},
    {"type": "function", "function": {
        "name": "place_order", "description": "Place a pickup order once the person confirmed it.",
        "parameters": {"type": "object", "required": ["items", "name"], "properties": {
            "items": {"type": "array", "items": {"type": "string"}, "description": "e.g. large oat latte"},
            "name": {"type": "string", "description": "the name the order is called out for"}}}}},
]
ORDER_NUMBERS = itertools.count(1001)  # next() on it is atomic in CPython: no lock needed


class ModelError(Exception):
    pass


def run_tool(call):
    """One tool call's result, as a dict; a bad call gets an error result, never an exception."""
    function = call.get("function") or {}
    # PORTS: `arguments` is a JSON *string* ('{"items": ["latte"]}'), not an object: parse it,
    # and answer arguments that are not JSON with an error result the model can read.
    try:
        arguments = json.loads(function.get("arguments") or "{}")
    except (TypeError, ValueError):
        return {"error": "the arguments are not valid JSON; call the tool again with a JSON object"}
    if not isinstance(arguments, dict):
        return {"error": "the arguments must be a JSON object"}
    if function.get("name") == "opening_hours":
        return {"today": "7:00-18:00"}
    if function.get("name") == "place_order":
        items, name = arguments.get("items"), arguments.get("name")
        if not isinstance(items, list) or not items or not all(isinstance(item, str) and item for item in items):
            return {"error": "items must be a non-empty list of strings"}
        if not isinstance(name, str) or not name.strip():
            return {"error": "name must be the person's name"}
        return {"orderId": f"A-{next(ORDER_NUMBERS)}"}
    return {"error": f"there is no tool named {function.get('name')!r}"}


def post_chat(messages, deadline):
    """One Chat Completions call; its answer's choices[0].message. Raises on any failure."""
    timeout = deadline - time.monotonic()
    if timeout <= 0:
        raise ModelError("no time left in the budget")
    headers = {"content-type": "application/json"}
    if API_KEY:  # a local server (Ollama, vLLM) may need none
        headers["authorization"] = f"Bearer {API_KEY}"
    request = urllib.request.Request(
        BASE_URL.rstrip("/") + "/chat/completions", method="POST", headers=headers,
        data=json.dumps({"model": MODEL, "messages": messages, "tools": TOOLS}).encode())
    # The timeout is what is left of the budget. (urllib applies it to each socket operation, not
    # to the whole call: a server that trickles bytes could take longer. Model servers do not.)
    with urllib.request.urlopen(request, timeout=timeout) as response:
        answer = json.loads(response.read())
    message = answer["choices"][0]["message"] if isinstance(answer, dict) else None
    if not isinstance(message, dict) or not isinstance(message.get("content") or "", str):
        raise ModelError("the answer has no choices[0].message")
    return message


def ask_model(messages, deadline):
    """post_chat, retried once when it fails and the budget allows (a 429's retry-after included)."""
    for attempt in (1, 2):
        wait = 0.2
        try:
            return post_chat(messages, deadline)
        except urllib.error.HTTPError as error:
            try:
                detail = json.loads(error.read()).get("error", {}).get("message", "") if error.code not in (401, 403) else ""
            except (ValueError, AttributeError, OSError, HTTPException):
                detail = ""
            problem = f"HTTP {error.code} {detail[:200]}".strip()
            if error.code == 429:
                try:
                    wait = float(error.headers.get("retry-after", "1"))
                except ValueError:
                    wait = 1.0
        except (OSError, ValueError, KeyError, IndexError, TypeError, HTTPException, ModelError) as error:
            problem = f"{type(error).__name__}: {error}"  # a timeout is an OSError (TimeoutError)
        retry = attempt == 1 and time.monotonic() + wait + 0.1 < deadline
        log(redact(f"model error ({problem}){'; retrying in %.1f s' % wait if retry else ''}"))
        if not retry:
            raise ModelError(problem)
        time.sleep(wait)


def model_reply(channel, history, user_text, deadline):
    """The model's final text for one message: tool rounds run, at most MAX_TOOL_ROUNDS."""
    system = PERSONA + "\n\n" + CHANNEL_INSTRUCTIONS.get(channel, CHANNEL_INSTRUCTIONS["web"])
    messages = [{"role": "system", "content": system}, *history, {"role": "user", "content": user_text}]
    for _ in range(MAX_TOOL_ROUNDS + 1):
        message = ask_model(messages, deadline)
        calls = message.get("tool_calls")
        if not calls:
            return (message.get("content") or "").strip()
        # The assistant message goes back with its tool_calls as sent, then one tool message per
        # call, under that call's id; then the model is asked again.
        messages.append({"role": "assistant", "content": message.get("content"), "tool_calls": calls})
        for call in calls:
            result = run_tool(call if isinstance(call, dict) else {})
            messages.append({"role": "tool", "tool_call_id": call.get("id", "") if isinstance(call, dict) else "",
                             "content": json.dumps(result)})
    raise ModelError(f"still calling tools after {MAX_TOOL_ROUNDS} rounds")


def user_text_of(message):
    """The person's message as the model reads it: files and taps said in words."""
    parts = []
    quoted = message.get("replyTo")
    if quoted:
        who = "your" if quoted["from"] == "agent" else "their own"
        parts.append(f'[quoting {who} message: "{quoted["text"][:300]}"]')
    for attachment in message.get("attachments") or []:
        kind = {"image": "photo", "audio": "voice note"}.get(attachment["kind"], attachment["kind"])
        parts.append(f"[the person sent a {kind}]")
    if message.get("choice"):
        parts.append(f'[the person tapped "{message["choice"]["title"]}"]')
    if message["text"]:
        parts.append(message["text"])
    return "\n".join(parts) or "[an empty message]"


# ----------------------------------------------------------------------------------------------
# Shaping a reply for its channel: Markdown only where it renders, buttons only where they show,
# SMS in GSM-7 single segments, a long text as a few chat bubbles, never over the hard limit.
# ----------------------------------------------------------------------------------------------

BOLD = re.compile(r"\*\*([^\s*](?:[^*\n]*?[^\s*])?)\*\*")
HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(\S.*?)[ \t#]*$", re.M)
LINK = re.compile(r"\[([^\[\]\n]+)\]\(((?:https?://|mailto:|www\.)[^\s)]*)\)")
TABLE_RULE = re.compile(r" {0,3}\|? *:?-+:? *(?:\| *:?-+:? *)+\|? *")
FENCE = re.compile(r"^ {0,3}(?:`{3,}|~{3,}).*\n?", re.M)


def without_tables(text):
    """Pipe tables as one line per row ("Latte: $5"); the |---| rule dropped."""
    lines, out, in_table = text.split("\n"), [], False
    row = lambda line: ": ".join(cell.strip() for cell in line.strip().strip("|").split("|") if cell.strip())
    for index, line in enumerate(lines):
        if TABLE_RULE.fullmatch(line) and index > 0 and "|" in lines[index - 1]:
            in_table, out[-1] = True, row(lines[index - 1])
            continue
        in_table = in_table and "|" in line
        out.append(row(line) if in_table else line)
    return "\n".join(out)


def plain(text):  # SMS, iMessage: no Markdown at all
    text = BOLD.sub(r"\1", text)
    text = HEADING.sub(lambda m: m.group(1).strip("*"), text)
    text = LINK.sub(lambda m: m.group(2) if m.group(1) == m.group(2) else f"{m.group(1)}: {m.group(2)}", text)
    return FENCE.sub("", without_tables(text))


def whatsapp_markdown(text):  # *bold*, code fences; no headings, tables or [label](url)
    text = HEADING.sub(lambda m: f"*{m.group(1).replace('**', '').strip('*')}*", BOLD.sub(r"*\1*", text))
    text = LINK.sub(lambda m: m.group(2) if m.group(1) == m.group(2) else f"{m.group(1)}: {m.group(2)}", text)
    return without_tables(text)


def telegram_markdown(text):  # *bold*, links and code fences; no headings or tables
    text = HEADING.sub(lambda m: f"*{m.group(1).replace('**', '').strip('*')}*", BOLD.sub(r"*\1*", text))
    return without_tables(text)


GSM7 = set("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZ"
           "ÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà")
GSM7_EXTENSION = set("\f^{}\\[~]|€")           # two septets each
SMS_LOOKALIKES = {"’": "'", "‘": "'", "“": '"', "”": '"', "—": "-", "–": "-", "…": "...", "•": "-", "\t": " ", "\u00a0": " "}


def gsm7(text):
    """The text in GSM-7 only: one character outside it makes the SMS UCS-2 (70 a segment)."""
    out = []
    for char in text:
        char = SMS_LOOKALIKES.get(char, char)
        if char in GSM7 or char in GSM7_EXTENSION or len(char) > 1:
            out.append(char)
        else:  # ê -> e, and what has no GSM-7 form (emoji, joiners) is dropped
            out.extend(c for c in unicodedata.normalize("NFKD", char) if c in GSM7)
    return re.sub(r"[ ]{2,}", " ", "".join(out))


def septets(text):
    return sum(2 if char in GSM7_EXTENSION else 1 for char in text)


def utf16_units(text):  # Telegram counts UTF-16 code units
    return sum(2 if ord(char) > 0xFFFF else 1 for char in text)


# Each platform's limits (x-platforms in spec/agent-endpoint.openapi.yaml; `limits CHANNEL`).
# `bubble` is the soft length (sms: one segment), else the hard limit; `buttons`: how many show.
PLATFORMS = {
    "whatsapp": {"markdown": whatsapp_markdown, "bubble": 700, "measure": len, "buttons": 3, "label": 20},
    "sms": {"markdown": plain, "bubble": 160, "measure": septets, "buttons": 0},
    "imessage": {"markdown": plain, "bubble": 400, "measure": len, "buttons": 0},
    "telegram": {"markdown": telegram_markdown, "bubble": 900, "measure": utf16_units, "buttons": 100, "label_bytes": 64},
    "web": {"markdown": lambda text: text, "bubble": 4096, "measure": len, "buttons": 10, "label": 40},
}

# Where a bubble may end, best first: a paragraph break, a line break, a sentence end, a word end.
CUTS = [(re.compile(r"\n[ \t]*\n\s*"), "\n\n"), (re.compile(r"\n\s*"), "\n"),
        (re.compile(r"(?<=[.!?…])\s+"), " "), (re.compile(r"\s+"), " ")]


def bubbles(text, limit, measure, level=0):
    """The text cut into bubbles of at most `limit` (in the platform's unit), short ones joined."""
    text = text.strip()
    if measure(text) <= limit:
        return [text] if text else []
    if level == len(CUTS):  # one word longer than a bubble: cut it where it must be
        end = 1
        while end < len(text) and measure(text[:end + 1]) <= limit:
            end += 1
        return [text[:end]] + bubbles(text[end:], limit, measure, level)
    pattern, joiner = CUTS[level]
    out = []
    for part in pattern.split(text):
        for piece in bubbles(part, limit, measure, level + 1):
            if out and measure(out[-1] + joiner + piece) <= limit:
                out[-1] += joiner + piece
            else:
                out.append(piece)
    return out


def shape(channel, text, choices=()):
    """The replies that carry `text` (and `choices` as buttons, where they show) on a channel."""
    platform = PLATFORMS.get(channel, PLATFORMS["web"])  # a custom channel: the schema only
    text = platform["markdown"](text)
    labels = list(dict.fromkeys(choices))  # a string button's id is its label: keep them unique
    fits = 0 < len(labels) <= platform["buttons"] and all(
        len(label) <= platform.get("label", 10**6) and len(label.encode()) <= platform.get("label_bytes", 10**6)
        for label in labels)
    if labels and not fits:  # SMS, iMessage (or too many): the options as a numbered list
        text += "\n\n" + "\n".join(f"{n}. {label}" for n, label in enumerate(labels, 1))
        text += "\n\nReply with the number."
        labels = []
    if channel == "sms":
        text = gsm7(text)
    replies = [{"type": "message", "text": part} for part in bubbles(text, platform["bubble"], platform["measure"])]
    # PORTS: leave an optional property out rather than write null ("buttons": null is a schema
    # error); buttons go on the last bubble only.
    if labels and replies:
        replies[-1]["buttons"] = labels
    return replies


def replies_for(request, history):
    """(replies, the user's text for the history, the reply text for the history)."""
    message, channel = request["message"], request["channel"]
    user_text = user_text_of(message)
    if FAKE_MODEL:  # a fixed reply, no network: the check runs anywhere
        if message.get("choice"):
            text = f"Good choice: one {message['choice']['title']}. Anything else?"
            return shape(channel, text), user_text, text
        return shape(channel, FAKE_GREETING, FAKE_CHOICES), user_text, FAKE_GREETING
    deadline = time.monotonic() + BUDGET_SECONDS
    try:
        text = model_reply(channel, history, user_text, deadline)
    except ModelError as error:
        # PORTS: the person gets a short apology and the error goes to the log. A 5xx would make
        # the platform retry or drop the message, and the person hears nothing.
        log(redact(f"model gave up: {error}"))
        return shape(channel, APOLOGY), user_text, ""
    return shape(channel, text), user_text, text


# ----------------------------------------------------------------------------------------------
# HTTP
# ----------------------------------------------------------------------------------------------

class Agent(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as platforms and check-endpoint use it
    disable_nagle_algorithm = True  # headers and body go in two writes: without it, 40 ms each
    server_version = "cafe-agent"

    def parse_request(self):
        self.started = time.monotonic()
        return super().parse_request()

    def answer(self, status, body=None, headers=(), close=False):
        data = b"" if body is None else json.dumps(body).encode()  # ASCII-escaped: always encodable
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        if close:
            self.send_header("connection", "close")
            self.close_connection = True
        self.end_headers()
        if getattr(self, "command", None) != "HEAD":
            self.wfile.write(data)
        elapsed = (time.monotonic() - getattr(self, "started", time.monotonic())) * 1000
        path = urlsplit(getattr(self, "path", "") or "").path  # never the query: it may hold a secret
        log(f"{getattr(self, 'command', None) or '-'} {path} {status} {elapsed:.0f}ms")

    def send_error(self, code, message=None, explain=None):  # http.server's own errors, as JSON
        self.answer(code, {"error": message or self.responses.get(code, ("error",))[0]}, close=True)

    def log_message(self, format, *args):  # answer() logs one line per request instead
        pass

    # PORTS: check-endpoint (like many uptime probes) sends HEAD first. Answer it without reading
    # or parsing a body: a handler that parses every body as JSON crashes here.
    def do_HEAD(self):
        self.answer(200)

    def __getattr__(self, name):  # every other method (GET, PUT, DELETE, OPTIONS, ...): 404 or 405
        if name.startswith("do_"):
            return self.other_method
        raise AttributeError(name)

    def other_method(self):
        self.drain()
        if urlsplit(self.path).path != "/agent":
            return self.answer(404, {"error": f"no such path: use POST /agent"})
        self.answer(405, {"error": f"{self.command} is not allowed: use POST"}, [("allow", "POST, HEAD")])

    def drain(self):
        """Reads and drops a body not used, so the connection stays usable and the client reads our answer."""
        length = self.headers.get("content-length", "0")
        remaining = int(length) if length.isdigit() else 0
        while remaining > 0:
            chunk = self.rfile.read(min(remaining, 65536))
            if not chunk:
                break
            remaining -= len(chunk)

    def do_POST(self):
        if urlsplit(self.path).path != "/agent":
            self.drain()
            return self.answer(404, {"error": "no such path: use POST /agent"})
        given = self.headers.get("authorization", "")
        if TOKEN and not hmac.compare_digest(given.encode(), f"Bearer {TOKEN}".encode()):  # constant time
            self.drain()
            return self.answer(401, {"error": "missing or wrong bearer token"}, [("www-authenticate", "Bearer")])
        length = self.headers.get("content-length", "")
        if not length.isdigit():  # no chunked bodies here: http.server does not decode them
            return self.answer(411 if not length else 400, {"error": "send the body with a content-length"}, close=True)
        if int(length) > MAX_BODY_BYTES:
            self.drain()  # read it all first, or the client may never see the 413
            return self.answer(413, {"error": f"the body is {length} bytes; at most {MAX_BODY_BYTES}"}, close=True)
        raw = self.rfile.read(int(length))  # exactly content-length bytes, never "until EOF"
        try:
            body = json.loads(raw.decode("utf-8"), parse_constant=reject_constant)
        except (ValueError, RecursionError) as error:  # not UTF-8, not JSON, or nested too deep
            return self.answer(400, {"error": f"the body is not JSON: {str(error)[:120]}"})
        problem = request_problem(body)
        if problem:
            return self.answer(400, {"error": problem})
        conversation, earlier, history = begin(body["conversationId"], body["messageId"])
        if earlier is not None:
            return self.answer(200, {"replies": earlier})
        try:
            replies, user_text, reply_text = replies_for(body, history)
        except Exception:  # a bug of ours: still an answer the person can read, never a 5xx
            log(redact(traceback.format_exc()))
            replies, user_text, reply_text = shape(body["channel"], APOLOGY), user_text_of(body["message"]), ""
        finish(conversation, body["messageId"], replies, user_text, reply_text)
        self.answer(200, {"replies": replies})


def main():
    server = ThreadingHTTPServer((HOST, PORT), Agent)
    server.daemon_threads = True
    mode = "FAKE_MODEL=1 (no model calls)" if FAKE_MODEL else f"model {MODEL} at {urlsplit(BASE_URL).hostname}"
    log(f"café agent on http://{HOST}:{server.server_address[1]}/agent, {mode}, "
        f"token {'required' if TOKEN else 'NOT required (set FLOW_FRAMEWORK_AGENT_TOKEN)'}")
    if not FAKE_MODEL and not API_KEY:
        log("OPENAI_API_KEY is not set: fine for a local server that needs no key; else every answer is the apology")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
