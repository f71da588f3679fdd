"""Servers on top of the platform: the web app (:mod:`tenpai.serve.web`) and bot protocols.

Nothing below this layer imports it; each server pulls in its own heavy dependencies lazily.
"""
