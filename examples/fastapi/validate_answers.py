"""Validates answer bodies with models.Answer: one JSON body a line on stdin, one verdict a line on stdout.

    echo '{"replies": [{"type": "message", "text": "hi"}]}' | python3 examples/fastapi/validate_answers.py
    accepted

Each verdict is `accepted` or `refused: <the first error>`. test/fastapi-example.test.ts feeds it
every fixture answer and holds its verdicts equal to spec/response.schema.json's.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from models import PYDANTIC_V2, Answer  # noqa: E402


def verdict(body) -> str:
    try:
        Answer.model_validate(body) if PYDANTIC_V2 else Answer.parse_obj(body)
        return "accepted"
    except (ValueError, TypeError) as error:  # pydantic's ValidationError is a ValueError
        return "refused: " + " ".join(str(error).split())[:300]


if __name__ == "__main__":
    for line in sys.stdin:
        if line.strip():
            print(verdict(json.loads(line)), flush=True)
