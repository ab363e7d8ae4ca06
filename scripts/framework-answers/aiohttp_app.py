"""An aiohttp agent written the common way, at aiohttp's defaults, to capture what aiohttp answers:
a 413 for a body over client_max_size (1 MiB by default), a 500 when an unguarded
`await request.json()` meets a body that is not JSON, and `null` for each None in the dict given
to `web.json_response`.

    /usr/bin/python3 aiohttp_app.py PORT

Used by capture.ts only (CI does not have aiohttp).
"""

import sys

from aiohttp import web


async def agent(request):
    await request.json()  # no try: a body that is not JSON is an unhandled error
    reply = {"type": "message", "text": "Hi! What can I get you?", "buttons": None, "image": None, "replyTo": None}
    return web.json_response({"replies": [reply]})


app = web.Application()
app.router.add_post("/agent", agent)

if __name__ == "__main__":
    web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None, access_log=None)
