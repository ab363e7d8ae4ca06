"""An agent endpoint as a FastAPI app, with the pydantic models of models.py (written from spec/).

    /usr/bin/python3 examples/fastapi/app.py            # Debian: apt-get install python3-fastapi python3-uvicorn
    npx check-endpoint http://127.0.0.1:8080/agent --quality --extended --channel all

- The request is an AgentRequest: FastAPI answers 422 naming the field to one that breaks
  spec/request.schema.json, and fields the contract adds later are ignored (extra="ignore").
- The answer is an Answer, sent with response_model_exclude_none=True: an optional property with
  no value is left out, never null.
- Work is keyed by conversationId and messageId: a platform's retry of an answered message gets
  the same answer again; a copy that arrives while the first is still being answered (a gateway
  retrying a slow agent) gets [], so the person never sees two answers.
- With FLOW_FRAMEWORK_AGENT_TOKEN set, a request without `authorization: Bearer <token>` is 401.
"""

import os
import secrets
import socket
import sys
from typing import Dict, Optional, Tuple

from fastapi import FastAPI, Header, Response
from fastapi.responses import JSONResponse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from models import AgentRequest, Answer, MessageReply  # noqa: E402

TOKEN = os.environ.get("FLOW_FRAMEWORK_AGENT_TOKEN")
# Platforms that show buttons, and how many.
BUTTONS = {"whatsapp": 3, "telegram": 100, "web": 10}

app = FastAPI()

IN_PROGRESS = object()
# (conversationId, messageId) -> the answer given, or IN_PROGRESS. Keep it in a store with a
# time to live (Redis, your database) when the agent runs in more than one process.
answers: Dict[Tuple[str, str], object] = {}


def say(text: str, **extra) -> MessageReply:
    return MessageReply(type="message", text=text, **extra)


def replies_to(request: AgentRequest) -> Answer:
    """Your model call goes here; this one answers by rule, as a stand-in."""
    message = request.message
    if message.choice is not None:
        return Answer(replies=[say(f"Done: {message.choice.title[:40]}. See you soon!")])
    if message.attachments:
        kind = message.attachments[0].kind
        return Answer(replies=[say(f"Thanks for the {'photo' if kind == 'image' else kind}! We will get back to you today.")])
    text = message.text.lower()
    if "thanks" in text:
        return Answer(replies=[])
    if "latte" in text and BUTTONS.get(request.channel, 0) >= 3:
        return Answer(replies=[say("Which size?", buttons=["Small", "Medium", "Large"])])
    if "latte" in text:
        return Answer(replies=[say("Which size? Reply 1 for small, 2 for medium, 3 for large.")])
    return Answer(replies=[say("Thanks for your message! How can I help?")])


@app.head("/agent")
async def probe() -> Response:
    return Response(status_code=200)


@app.post("/agent", response_model=Answer, response_model_exclude_none=True)
async def agent(request: AgentRequest, authorization: Optional[str] = Header(default=None)):
    if TOKEN is not None and not secrets.compare_digest(authorization or "", f"Bearer {TOKEN}"):
        return JSONResponse({"error": "unauthorized"}, status_code=401, headers={"www-authenticate": "Bearer"})
    key = (request.conversationId, request.messageId)
    given = answers.get(key)
    if given is IN_PROGRESS:
        return Answer(replies=[])  # a copy of a message still being answered: the first answer is on its way
    if given is not None:
        return given  # a retry: the same answer as the first time
    answers[key] = IN_PROGRESS
    try:
        answer = replies_to(request)
    except BaseException:
        del answers[key]
        raise
    answers[key] = answer
    return answer


if __name__ == "__main__":
    import uvicorn

    # Port 0 picks a free port; the line below says which.
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", int(os.environ.get("PORT", "8080"))))
    listener.listen(128)  # connections wait in the backlog until the server takes them
    print(f"listening on http://127.0.0.1:{listener.getsockname()[1]}/agent", flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    server.run(sockets=[listener])
