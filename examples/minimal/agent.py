#!/usr/bin/env python3
"""A minimal agent for the agent endpoint contract, with Python's standard library only.

    PORT=8080 python3 examples/minimal/agent.py
    npx --yes --package ./check-endpoint-0.1.0.tgz check-endpoint http://127.0.0.1:8080/agent

It answers HEAD (the check's first request), takes bodies up to 8 MiB (the contract promises
7 MB: a 5 MB photo as base64, plus the JSON around it), refuses a body that is not a request
with 400 naming what is wrong, and answers every message with one text reply.
"""

import json
import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_BODY_BYTES = 8 * 1024 * 1024


def problems_of(request):
    """What is wrong with a request body, after spec/request.schema.json's required fields; [] when nothing."""
    if not isinstance(request, dict):
        return ["the body must be a JSON object"]
    problems = []
    for field in ("conversationId", "messageId", "channel"):
        if not isinstance(request.get(field), str) or request[field] == "":
            problems.append(f"{field} must be a non-empty string")
    message = request.get("message")
    if not isinstance(message, dict):
        problems.append("message must be an object")
    elif not isinstance(message.get("text"), str):
        problems.append('message.text must be a string ("" for a photo or a tap)')
    return problems


def replies_to(message):
    """The replies to one message: your agent's logic goes here."""
    if message["text"] == "":
        return [{"type": "message", "text": "Thanks, I got your file."}]
    return [{"type": "message", "text": "Thanks for your message! How can I help?"}]


class Agent(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep connections open, as the check does

    def answer(self, status, body, close=False):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        if close:
            self.send_header("connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def do_HEAD(self):  # any answer tells the check the agent is there
        self.answer(200, {"replies": []})

    do_GET = do_HEAD

    def do_POST(self):
        try:
            length = int(self.headers.get("content-length", ""))
        except ValueError:
            return self.answer(411, {"error": "send a content-length"}, close=True)
        if length > MAX_BODY_BYTES:
            self.answer(413, {"error": f"the body is over {MAX_BODY_BYTES} bytes"}, close=True)
            while length > 0:  # read the rest and drop it, so the client gets to read the 413
                chunk = self.rfile.read(min(length, 65536))
                if not chunk:
                    break
                length -= len(chunk)
            return
        try:
            body = json.loads(self.rfile.read(length).decode("utf-8"))
        except ValueError:  # not UTF-8, or not JSON
            return self.answer(400, {"error": "the body is not UTF-8 JSON"})
        problems = problems_of(body)
        if problems:
            return self.answer(400, {"error": "; ".join(problems)})
        self.answer(200, {"replies": replies_to(body["message"])})

    def log_message(self, format, *args):  # quiet: one line per request is noise here
        pass


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT", "8080"))), Agent)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/agent", flush=True)
    server.serve_forever()
