"""Errors that reach users: each names what went wrong and where."""

from __future__ import annotations

from pathlib import Path

#: Exit codes of the ``benger`` command (documented in the README).
EXIT_OK = 0
#: An unexpected internal error (a bug): one line, the traceback only with ``--debug``.
EXIT_INTERNAL = 1
#: A usage error (unknown command or option, bad option value) or bad input (file, config, store).
EXIT_USAGE = 2
EXIT_INPUT = 2
#: The run ended but is incomplete: items failed, remain, or a budget cap stopped it (a rerun resumes).
EXIT_INCOMPLETE = 3


class BengerError(Exception):
    """Base class for every error benger raises on purpose (the CLI prints these without a traceback)."""


class InputError(BengerError):
    """Bad input data: names the file, the line (1-based, as an editor counts), the record and the field.

    ``record`` is the 1-based number of a record in a list (``file:9, record 2, field 'x'``) for inputs
    whose records are not one per line; it is never printed as if it were a line.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        line: int | None = None,
        field: str | None = None,
        record: int | None = None,
    ) -> None:
        self.file = str(file) if file is not None else None
        self.line = line
        self.field = field
        self.record = record
        self.reason = message
        where = []
        if self.file is not None:
            where.append(self.file if line is None else f"{self.file}:{line}")
        elif line is not None:
            where.append(f"line {line}")
        if record is not None:
            where.append(f"record {record}")
        if field is not None:
            where.append(f"field '{field}'")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message)


class InputWarning(UserWarning):
    """Input that is read, but perhaps not as meant (a text longer than a model may take): the ``benger`` command
    prints ``warning: <message>`` on stderr and goes on (``benger.cli._app``). Named like an InputError."""

    def __init__(
        self, message: str, *, file: str | Path | None = None, line: int | None = None, field: str | None = None
    ) -> None:
        super().__init__(str(InputError(message, file=file, line=line, field=field)))


class ConfigError(BengerError):
    """A run configuration, catalog entry or setting is invalid or missing."""


class MissingKeyError(ConfigError):
    """A model that calls a remote endpoint has no API key: ``system`` names it, ``variables`` the environment
    variable(s) that would give one (never a value). A real run refuses it; an estimate, which calls nothing,
    only says which keys a real run needs (``cli._execute.check_models``)."""

    def __init__(self, system: str, provider: str, model: str, variables: tuple[str, ...]) -> None:
        self.system = system
        self.variables = variables
        self.need = f"{' or '.join(variables)} (system '{system}', {provider}, model {model})"
        super().__init__(
            f"system '{system}' ({provider}, model {model}) needs an API key: "
            f"set the environment variable {' or '.join(variables)}"
        )


class MissingDependencyError(BengerError):
    """An optional extra is needed for this feature but is not installed."""

    def __init__(self, feature: str, extra: str, package: str) -> None:
        super().__init__(f"{feature} needs the optional package '{package}': pip install 'benger[{extra}]'")
