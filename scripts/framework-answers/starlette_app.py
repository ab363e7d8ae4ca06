"""A Starlette agent under uvicorn, written the common way, to capture what Starlette answers: a
500 when an unguarded `await request.json()` meets a body that is not JSON, and `null` for each
None in the dict given to JSONResponse.

    /usr/bin/python3 starlette_app.py PORT

Used by capture.ts only (CI does not have Starlette).
"""

import sys

import uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route


async def agent(request):
    await request.json()  # no try: a body that is not JSON is an unhandled error
    reply = {"type": "message", "text": "Hi! What can I get you?", "buttons": None, "image": None, "replyTo": None}
    return JSONResponse({"replies": [reply]})


app = Starlette(routes=[Route("/agent", agent, methods=["POST"])])

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="critical")
