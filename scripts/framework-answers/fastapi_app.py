"""A FastAPI agent written the common way, with pydantic models, to capture what FastAPI answers:
a 422 with pydantic's `detail` list for the photo request (its `text` is "", which the model's
`min_length=1` refuses), and an answer whose unset optional properties are `null` (no
`response_model_exclude_none=True`).

    /usr/bin/python3 fastapi_app.py PORT

Used by capture.ts only (CI does not have FastAPI).
"""

import sys
from typing import List, Optional

import uvicorn
from fastapi import FastAPI
from pydantic import BaseModel, constr


class Attachment(BaseModel):
    kind: str
    mime: str
    name: str
    data: str


class Message(BaseModel):
    text: constr(min_length=1)
    attachments: Optional[List[Attachment]] = None


class AgentRequest(BaseModel):
    conversationId: str
    messageId: str
    channel: str
    message: Message


class Reply(BaseModel):
    type: str = "message"
    text: Optional[str] = None
    buttons: Optional[List[str]] = None
    image: Optional[dict] = None
    replyTo: Optional[str] = None


class Answer(BaseModel):
    replies: List[Reply]


app = FastAPI()


@app.post("/agent", response_model=Answer)
def agent(request: AgentRequest):
    return Answer(replies=[Reply(text="Hi! What can I get you?")])


if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
