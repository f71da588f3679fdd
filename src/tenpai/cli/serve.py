"""`tenpai serve`: start the local web app (play, replay, review, arena results)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: Annotated[
            str, typer.Option("--host", help="Address to bind; 127.0.0.1 keeps it local.")
        ] = "127.0.0.1",
        port: Annotated[int, typer.Option("--port", min=0, max=65535, help="TCP port.")] = 8765,
        records: Annotated[
            list[Path] | None,
            typer.Option("--records", help="A folder the app may open records from (repeat)."),
        ] = None,
    ) -> None:
        """Start the web app and print its URL; Ctrl-C stops it."""
        try:
            import uvicorn

            from tenpai.serve.web.app import create_app
            from tenpai.serve.web.config import WebConfig
        except ImportError as exc:
            typer.echo(f"error: the web app needs the 'web' extra ({exc.name} is missing): "
                       "pip install 'tenpai[web]'", err=True)
            raise typer.Exit(2) from None
        folders = tuple(records or ())
        for f in folders:
            if not f.is_dir():
                typer.echo(f"error: --records {f} is not a folder", err=True)
                raise typer.Exit(2)
        if host not in ("127.0.0.1", "localhost", "::1"):
            typer.echo(f"warning: binding {host} makes the app reachable from other machines",
                       err=True)
        app = create_app(WebConfig(records=folders))
        shown = f"[{host}]" if ":" in host else host
        typer.echo(f"tenpai web app: http://{shown}:{port}/", err=False)
        uvicorn.run(app, host=host, port=port, log_level="warning")
