"""A Tornado agent written the common way, at Tornado's defaults, to capture what Tornado answers:
its 500 page when `json.loads(self.request.body)` meets a body that is not JSON, `null` for each
None in the dict given to `self.write`, and the content type of an answer written as a str
(`/text`: `self.write(json.dumps(answer))`).

    /usr/bin/python3 tornado_app.py PORT

Used by capture.ts only (CI does not have Tornado).
"""

import asyncio
import json
import sys

import tornado.web

REPLY = {"type": "message", "text": "Hi! What can I get you?", "buttons": None, "image": None, "replyTo": None}


class Agent(tornado.web.RequestHandler):
    def post(self):
        json.loads(self.request.body)  # no try: a body that is not JSON is an unhandled error
        self.write({"replies": [REPLY]})


class TextAgent(tornado.web.RequestHandler):
    def post(self):
        json.loads(self.request.body)
        self.write(json.dumps({"replies": [{"type": "message", "text": "Hi! What can I get you?"}]}))


class Root(tornado.web.RequestHandler):
    def head(self):
        pass


async def main():
    app = tornado.web.Application([("/agent", Agent), ("/text", TextAgent), ("/", Root)])
    app.listen(int(sys.argv[1]), address="127.0.0.1")
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
