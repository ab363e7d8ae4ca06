"""A Flask agent whose handler fails on a photo (it reads `message.text` as a number), served by
Flask's own server with DEBUG off, to capture the 500 page Flask (werkzeug) answers an unhandled
error with.

    /usr/bin/python3 flask_app.py PORT

Used by capture.ts only (CI does not have Flask).
"""

import sys

from flask import Flask, request

app = Flask(__name__)


@app.post("/agent")
def agent():
    body = request.get_json()
    count = int(body["message"]["text"])  # "" on a photo: ValueError, an unhandled error
    return {"replies": [{"type": "message", "text": "%d" % count}]}


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(sys.argv[1]))
