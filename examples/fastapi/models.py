"""Pydantic models of the agent endpoint contract's request and answer, written from spec/.

spec/request.schema.json -> AgentRequest: the fields an agent reads, each held to the schema
(`Field(min_length=1)`, `Literal[...]`), and `extra="ignore"` so that a field the contract adds
later is ignored, never refused (forward compatibility).

spec/response.schema.json -> Answer: strict (`extra="forbid"`, strict strings), so a typo such as
`buttton` fails here, in your own tests, before check-endpoint sees it; the rules JSON Schema
states with `allOf` / `not` / `dependentSchemas` (text or an image; at most one of buttons, list
and link, each with text; no list with an image) and the two it cannot (unique button ids, unique
row ids) are model validators. An optional property is left out, never null: send answers with
`model_dump(exclude_none=True)` or FastAPI's `response_model_exclude_none=True`.

Written for pydantic v2 (`model_config = ConfigDict(...)`, `model_validator`); the same models run
on pydantic v1 (Debian 12's python3-pydantic 1.10, with its FastAPI 0.92), through the few lines
under PYDANTIC_V2 below. test/fastapi-example.test.ts holds them equal to spec/ on every fixture
answer: each one the schema accepts, they accept; each one it refuses, they refuse.
"""

import re
from typing import List, Literal, Optional, Union
from urllib.parse import urlsplit

import pydantic
from pydantic import BaseModel, Field, StrictStr

PYDANTIC_V2 = pydantic.VERSION.startswith("2")

def _no_nulls(data):
    """The answer schema allows null nowhere: a property with no value is left out."""
    if isinstance(data, dict):
        nulls = [name for name, value in data.items() if value is None]
        if nulls:
            raise ValueError(f"{', '.join(nulls)}: leave a property with no value out, never null")
    return data


if PYDANTIC_V2:
    from pydantic import ConfigDict, model_validator

    class Lenient(BaseModel):
        """A request model: fields the contract adds later are ignored."""

        model_config = ConfigDict(extra="ignore")

    class Strict(BaseModel):
        """An answer model: an unknown property is an error, and so is null, as in spec/response.schema.json."""

        model_config = ConfigDict(extra="forbid")

        @model_validator(mode="before")
        @classmethod
        def no_nulls(cls, data):
            return _no_nulls(data)

    def after_validation(check):
        """Runs check(model) once the fields are valid (a pydantic v2 model_validator)."""

        def validate(self):
            check(self)
            return self

        return model_validator(mode="after")(validate)

else:  # pydantic v1
    from pydantic import root_validator

    class Lenient(BaseModel):
        class Config:
            extra = "ignore"

    class Strict(BaseModel):
        class Config:
            extra = "forbid"

        @root_validator(pre=True, allow_reuse=True)
        def no_nulls(cls, values):
            return _no_nulls(values)

    class _Values:
        """A v1 root validator's dict, read as attributes like a v2 model."""

        def __init__(self, values):
            self.__dict__.update(values)

    def after_validation(check):
        def validate(cls, values):
            check(_Values(values))
            return values

        return root_validator(skip_on_failure=True, allow_reuse=True)(validate)


# ---------------------------------------------------------------- strings held to the schemas' patterns

BASE64 = re.compile(r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$")
IMAGE_MIME = re.compile(r"^image/[a-z0-9][a-z0-9.+-]*$")
TEMPLATE_NAME = re.compile(r"^[a-z0-9_]{1,512}$")
LANGUAGE = re.compile(r"^[a-z]{2,3}(?:_[A-Z]{2})?$")


def _url(value: str, schemes: tuple) -> str:
    """An absolute URL of one of these schemes, with a host, that browsers parse (a port is 0 to 65535)."""
    if re.search(r"[\s\x00-\x1f\x7f]", value) or not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#]+", value):
        raise ValueError("must be an absolute URL")
    parts = urlsplit(value)
    if parts.scheme.lower() not in schemes or not parts.hostname:
        raise ValueError(f"must be an absolute {' or '.join(schemes)} URL")
    parts.port  # raises ValueError for a port of letters or over 65535
    return value


def _checked(pattern, what):
    def check(value: str) -> str:
        if not pattern.match(value):
            raise ValueError(f"must be {what}")
        return value

    return check


if PYDANTIC_V2:
    from typing import Annotated

    from pydantic import AfterValidator

    HttpUrl_ = Annotated[StrictStr, AfterValidator(lambda value: _url(value, ("http", "https")))]
    HttpsUrl_ = Annotated[StrictStr, AfterValidator(lambda value: _url(value, ("https",)))]
    Base64_ = Annotated[StrictStr, Field(min_length=1), AfterValidator(_checked(BASE64, "base64 (RFC 4648, with padding)"))]
    AnyBase64_ = Annotated[StrictStr, AfterValidator(_checked(BASE64, "base64 (RFC 4648, with padding)"))]
    ImageMime_ = Annotated[StrictStr, AfterValidator(_checked(IMAGE_MIME, "an image media type such as image/png"))]
    TemplateName_ = Annotated[StrictStr, AfterValidator(_checked(TEMPLATE_NAME, "lower case letters, digits and _"))]
    Language_ = Annotated[StrictStr, AfterValidator(_checked(LANGUAGE, "a language code such as en or en_US"))]
    Label_ = Annotated[StrictStr, Field(min_length=1)]
else:
    from pydantic import ConstrainedStr

    def _constrained(check=None, min_length=None):
        class Checked(ConstrainedStr):
            strict = True

            @classmethod
            def __get_validators__(cls):
                yield from super().__get_validators__()
                if check is not None:
                    yield check

        Checked.min_length = min_length
        return Checked

    HttpUrl_ = _constrained(lambda value: _url(value, ("http", "https")))
    HttpsUrl_ = _constrained(lambda value: _url(value, ("https",)))
    Base64_ = _constrained(_checked(BASE64, "base64 (RFC 4648, with padding)"), min_length=1)
    AnyBase64_ = _constrained(_checked(BASE64, "base64 (RFC 4648, with padding)"))
    ImageMime_ = _constrained(_checked(IMAGE_MIME, "an image media type such as image/png"))
    TemplateName_ = _constrained(_checked(TEMPLATE_NAME, "lower case letters, digits and _"))
    Language_ = _constrained(_checked(LANGUAGE, "a language code such as en or en_US"))
    Label_ = _constrained(min_length=1)


# ---------------------------------------------------------------- the request (request.schema.json)


class Attachment(Lenient):
    kind: Literal["image", "audio", "video", "document"]
    mime: StrictStr = Field(min_length=1)
    name: StrictStr
    data: AnyBase64_


class Choice(Lenient):
    id: StrictStr = Field(min_length=1)
    title: StrictStr


class QuotedMessage(Lenient):
    messageId: StrictStr = Field(min_length=1)
    from_: Literal["agent", "person"] = Field(alias="from")
    text: StrictStr


class PersonMessage(Lenient):
    text: StrictStr  # "" when the person only sent a file or tapped a button
    attachments: Optional[List[Attachment]] = None
    choice: Optional[Choice] = None
    replyTo: Optional[QuotedMessage] = None


class AgentRequest(Lenient):
    conversationId: StrictStr = Field(min_length=1, max_length=200)
    messageId: StrictStr = Field(min_length=1, max_length=200)
    # One of the five platforms, or a custom name.
    channel: StrictStr = Field(pattern=r"^[a-z][a-z0-9_-]{0,31}$") if PYDANTIC_V2 else Field(regex=r"^[a-z][a-z0-9_-]{0,31}$")
    message: PersonMessage


# ---------------------------------------------------------------- the answer (response.schema.json)


class Button(Strict):
    id: Label_
    label: Label_


class Row(Strict):
    id: Label_
    title: Label_
    description: Optional[StrictStr] = None


class Section(Strict):
    title: Optional[Label_] = None
    rows: List[Row] = Field(min_length=1) if PYDANTIC_V2 else Field(min_items=1)


class ListControl(Strict):
    button: Label_
    sections: List[Section] = Field(min_length=1) if PYDANTIC_V2 else Field(min_items=1)


class Link(Strict):
    url: HttpUrl_
    label: Label_


class ImageByUrl(Strict):
    url: HttpsUrl_


class ImageData(Strict):
    data: Base64_
    mime: ImageMime_


def _check_message(message) -> None:
    """What response.schema.json says of a message beyond its fields' shapes, and the unique ids it cannot say."""
    has_text = bool(message.text)
    if not has_text and message.image is None:
        raise ValueError("a message needs non-empty text or an image")
    controls = [name for name in ("buttons", "list", "link") if getattr(message, name) is not None]
    if len(controls) > 1:
        raise ValueError("a message carries at most one of buttons, list and link")
    if controls and not has_text:
        raise ValueError(f"{controls[0]} need non-empty text as the message body")
    if message.list is not None and message.image is not None:
        raise ValueError("a list and an image do not combine in one message")
    if message.buttons is not None:
        ids = [button if isinstance(button, str) else button.id for button in message.buttons]
        if len(ids) != len(set(ids)):
            raise ValueError("button ids must be unique within the message (a string button's id is its label)")
    if message.list is not None:
        rows = [row.id for section in message.list.sections for row in section.rows]
        if len(rows) != len(set(rows)):
            raise ValueError("row ids must be unique within the list")


class MessageReply(Strict):
    type: Literal["message"]
    text: Optional[StrictStr] = None
    buttons: Optional[List[Union[Label_, Button]]] = Field(default=None, min_length=1) if PYDANTIC_V2 else Field(default=None, min_items=1)
    list: Optional[ListControl] = None
    link: Optional[Link] = None
    image: Optional[Union[ImageByUrl, ImageData]] = None
    replyTo: Optional[Label_] = None

    check_message_rules = after_validation(_check_message)


class ReactionReply(Strict):
    type: Literal["reaction"]
    # Exactly one emoji (UTS #51) in the schema; here, one short run of symbols: see test/fastapi-example.test.ts.
    emoji: StrictStr = Field(min_length=1, max_length=16)
    messageId: Label_


class TemplateReply(Strict):
    type: Literal["template"]
    name: TemplateName_
    language: Language_
    parameters: Optional[List[StrictStr]] = None


Reply = Union[MessageReply, ReactionReply, TemplateReply]


class Answer(Strict):
    """The body of a 200 answer: { "replies": [...] }; [] sends nothing and is always valid."""

    replies: List[Reply]
