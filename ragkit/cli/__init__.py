"""The ``ragkit`` command line: one module per subcommand."""

from __future__ import annotations

import logging
import sys
from typing import Any

import click

from ragkit._version import __version__
from ragkit.errors import RagkitError, redact

COMMANDS = {
    # name: module (imported lazily, so that `ragkit --help` stays fast)
    "benchmark": "benchmark",
    "cache": "cache",
    "calibrate": "calibrate",
    "compare": "compare",
    "config": "config",
    "doctor": "doctor",
    "evaluate": "evaluate",
    "export": "export",
    "gate": "gate",
    "generate": "generate",
    "kg": "kg",
    "list": "list_cmd",
    "report": "report",
    "run": "run",
}


EXIT_GATE, EXIT_FAILED_SCORES = 3, 4  # 1 and 2 come with the error itself (RagkitError.exit_code)
EXIT_CODES = """\b
Exit codes: 0 ok, 1 run error (one line says why), 2 usage error (a bad option, argument or input), 3 the gate
(--fail-under / --fail-over) did not pass, 4 more scores failed than --max-failed allows, 130 interrupted."""

WORKFLOW = (
    # ragkit --help shows the commands in the order a user needs them
    ("The whole job", ("benchmark",)),
    ("Step by step", ("kg", "generate", "run", "evaluate", "report")),
    ("Compare and inspect", ("compare", "gate", "export", "calibrate", "list", "config", "cache", "doctor")),
)


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use, listed by workflow in ``--help``."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        for title, names in WORKFLOW:
            rows = []
            for name in names:
                command = self.get_command(ctx, name)
                if command is not None and not command.hidden:
                    rows.append((name, command.get_short_help_str(limit=formatter.width - 6 - 12)))
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        module = COMMANDS.get(name)
        if module is None:
            return None
        import importlib

        try:
            mod = importlib.import_module(f"ragkit.cli.{module}")
        except ModuleNotFoundError as exc:
            if exc.name == f"ragkit.cli.{module}":
                return None  # command not built yet
            raise
        command: click.Command = mod.command
        return command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            if (ctx.obj or {}).get("debug"):
                raise
            raise OneLineUsageError(exc.format_message()) from exc
        except RagkitError as exc:
            if (ctx.obj or {}).get("debug"):
                raise
            raise (OneLineUsageError if exc.exit_code == 2 else OneLineError)(str(exc)) from exc


class _RedactingFilter(logging.Filter):
    """Log records leave with every secret masked (a warning may quote a gateway's reply)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = redact(record.getMessage()), None
        return True


class OneLineError(click.ClickException):
    """An expected failure: printed as one line, exit 1."""

    def format_message(self) -> str:
        return " ".join(self.message.split())


class OneLineUsageError(OneLineError):
    """A bad option or argument: one line naming it and what is wrong (no usage dump), exit 2."""

    exit_code = 2


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXIT_CODES)
@click.version_option(__version__, prog_name="ragkit")
@click.option("--debug", is_flag=True, help="Show tracebacks for every error.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """ragkit: build test sets from your documents and measure your RAG system."""
    ctx.obj = {"debug": debug}
    logging.basicConfig(level=logging.DEBUG if debug else logging.WARNING, format="%(levelname)s %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(_RedactingFilter())


def main(argv: list[str] | None = None) -> Any:
    """Console entry point: expected errors print one line (exit 1); Ctrl-C exits 130."""
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        code = cli.main(args=argv, prog_name="ragkit", standalone_mode=False)
        if isinstance(code, int) and code:
            sys.exit(code)
        return code
    except click.exceptions.Abort:
        click.echo("Interrupted.", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        click.echo("Interrupted.", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except RagkitError as exc:
        if debug:
            raise
        click.echo(f"Error: {' '.join(str(exc).split())}", err=True)
        sys.exit(exc.exit_code)
