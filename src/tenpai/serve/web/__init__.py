"""The local web app: play against the built-in agents, replay records, review decisions.

``tenpai serve`` builds the app with :func:`tenpai.serve.web.app.create_app`; FastAPI and
uvicorn (the ``web`` extra) are imported only there, so importing this package stays light.
"""
