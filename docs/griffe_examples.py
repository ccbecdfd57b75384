"""A griffe extension used by the docs build: tidy docstrings for Markdown.

The library's docstrings head their doctests with ``Example:`` (singular).
Griffe's Google-style parser knows only ``Examples:`` as a section and would
render a singular one as a plain admonition, turning ``>>>`` lines into block
quotes. This extension renames the heading before parsing, so the API pages
show the doctests as Python console code. It ends a paragraph that reST
closes with ``::`` (before a literal block) with one colon. It also turns
Sphinx roles such as
``:class:`State``` into plain code spans, which Markdown would otherwise show
with the role's name. It leaves out what only doctest needs: the ``...``
under a traceback's first line (the stack doctest skips) and ``# doctest:``
directives. It changes nothing in docstrings that need none of these.

``mkdocs.yml`` loads it by path (``extensions: [docs/griffe_examples.py]``).
Importing it without griffe installed (as the doctest collection of ``docs/``
does) is harmless.
"""

from __future__ import annotations

import enum
import importlib
import re
from typing import Any

try:
    from griffe import Extension, Function, Parameter, ParameterKind, Parameters
except ImportError:  # pragma: no cover - only the docs build needs griffe
    Extension = object  # type: ignore[misc,assignment]

__all__ = ["AttrsConstructors", "EnumMembers", "MarkdownDocstrings", "PublicTypeVars"]

_EXAMPLE_HEADING = re.compile(r"^(?P<indent>[ \t]*)Example:[ \t]*$", re.MULTILINE)
# reST's "text::" before an indented literal block: Markdown shows the block
# as code already, and the "::" as it is
_LITERAL_BLOCK = re.compile(r"(?<=\w)::[ \t]*$", re.MULTILINE)
_SPHINX_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|data|attr|exc|mod|obj):`~?(?P<name>[^`]+)`")
_STACK = re.compile(r"^([ \t]*Traceback \(most recent call last\):)\n[ \t]*\.\.\.[ \t]*$", re.MULTILINE)
_DIRECTIVE = re.compile(r"[ \t]*# doctest: *[+-][A-Z_, +-]+$", re.MULTILINE)


class MarkdownDocstrings(Extension):  # type: ignore[misc]
    """Head doctests ``Examples:`` and turn Sphinx roles into code spans, in every docstring."""

    def on_instance(self, *, obj: Any, **kwargs: Any) -> None:
        """Rewrite the docstring of each object griffe loads.

        Args:
            obj: The object (module, class, function or attribute) just loaded.
            **kwargs: The other hook arguments, unused.
        """
        docstring = getattr(obj, "docstring", None)
        if docstring is None:
            return
        text = _EXAMPLE_HEADING.sub(r"\g<indent>Examples:", docstring.value)
        text = _LITERAL_BLOCK.sub(":", text)
        text = _DIRECTIVE.sub("", _STACK.sub(r"\1", text))
        docstring.value = _SPHINX_ROLE.sub(r"`\g<name>`", text)


class AttrsConstructors(Extension):  # type: ignore[misc]
    """Give each attrs class the constructor attrs writes for it, with its parameters.

    Griffe reads the source, where an attrs class has no ``__init__``; so the
    API page (``merge_init_into_class``) showed ``Card`` or ``Cavendish``
    without the parameters a reader calls them with. This builds the
    ``__init__`` from the runtime class's attrs fields: each field's alias,
    its annotation as written, its default (``...`` for a factory) and
    keyword-only where attrs makes it so.
    """

    def on_class_members(self, *, cls: Any, **kwargs: Any) -> None:
        """Add ``__init__`` to an attrs class that does not write its own.

        Args:
            cls: The class griffe has just loaded the members of.
            **kwargs: The other hook arguments, unused.
        """
        if "__init__" in cls.members:
            return
        import attrs

        runtime = _runtime(cls)
        if not (isinstance(runtime, type) and attrs.has(runtime)):
            return
        parameters = [Parameter("self", kind=ParameterKind.positional_or_keyword)]
        for field in attrs.fields(runtime):
            if not field.init:
                continue
            annotation = field.type if isinstance(field.type, str) else getattr(field.type, "__name__", None)
            if annotation is not None:
                annotation = modern_annotation(annotation)
            if field.default is attrs.NOTHING:
                default = None
            elif isinstance(field.default, attrs.Factory):  # type: ignore[arg-type]
                default = "..."
            else:
                default = repr(field.default)
            kind = ParameterKind.keyword_only if field.kw_only else ParameterKind.positional_or_keyword
            parameters.append(Parameter(field.alias or field.name, annotation=annotation, kind=kind, default=default))
        init = Function("__init__", parameters=Parameters(*parameters), returns="None")
        cls.set_member("__init__", init)


class EnumMembers(Extension):  # type: ignore[misc]
    """List an enum's members, with their values, at the end of its docstring.

    The members carry no docstrings of their own, so the API page would not
    show them.
    """

    def on_class_members(self, *, cls: Any, **kwargs: Any) -> None:
        """Append "Members: ..." to an enum class's docstring.

        Args:
            cls: The class griffe has just loaded the members of.
            **kwargs: The other hook arguments, unused.
        """
        runtime = _runtime(cls)
        if not (isinstance(runtime, type) and issubclass(runtime, enum.Enum)) or cls.docstring is None:
            return
        members = ", ".join(f"`{m.name}` (`{m.value!r}`)" for m in runtime)
        cls.docstring.value = f"{cls.docstring.value}\n\nMembers: {members}."


def _split_arguments(text: str) -> list[str]:
    """The comma-separated arguments of a subscript, brackets respected."""
    parts, depth, start = [], 0, 0
    for at, char in enumerate(text):
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:at].strip())
            start = at + 1
    parts.append(text[start:].strip())
    return parts


def modern_annotation(text: str) -> str:
    """Write ``Optional[X]`` as ``X | None`` and ``Union[A, B]`` as ``A | B`` (nested too).

    An attrs field's annotation is the source's text, which the signature
    modernizer does not see, so the constructors showed ``Optional[int]``
    beside the ``int | None`` of every other signature.

    Example:
        >>> modern_annotation("Optional[int]")
        'int | None'
        >>> modern_annotation("tuple[tuple[int, Union[Action, Hidden]], ...]")
        'tuple[tuple[int, Action | Hidden], ...]'
    """
    for name in ("Optional", "Union"):
        start = text.find(name + "[")
        while start != -1 and (start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "._")):
            depth, end = 0, start + len(name)
            for end in range(start + len(name), len(text)):
                depth += {"[": 1, "]": -1}.get(text[end], 0)
                if depth == 0:
                    break
            inner = [modern_annotation(a) for a in _split_arguments(text[start + len(name) + 1 : end])]
            written = " | ".join([*inner, "None"] if name == "Optional" else inner)
            text = text[:start] + written + text[end + 1 :]
            start = text.find(name + "[")
    return text


def _runtime(cls: Any) -> Any:
    """The runtime object of a griffe class, or ``None`` if it does not import."""
    try:
        runtime = importlib.import_module(cls.module.path)
        for part in cls.path[len(cls.module.path) + 1 :].split("."):
            runtime = getattr(runtime, part)
    except (ImportError, AttributeError):
        return None
    return runtime


_PRIVATE_TYPEVAR = re.compile(r"\b_([A-Z])\b")


class PublicTypeVars(Extension):  # type: ignore[misc]
    """Show a private type variable (``_R``, ``_T``) as ``R``, ``T`` in signatures.

    ``register_ruleset(cls: _R) -> _R`` reads as a private name to look up;
    ``register_ruleset(cls: R) -> R`` reads as what it is, a type variable.
    """

    def on_function_instance(self, *, func: Any, **kwargs: Any) -> None:
        """Rename the private type variables in ``func``'s parameters and return type.

        Args:
            func: The function griffe has just loaded.
            **kwargs: The other hook arguments, unused.
        """
        for parameter in func.parameters:
            if parameter.annotation is not None and _PRIVATE_TYPEVAR.search(str(parameter.annotation)):
                parameter.annotation = _PRIVATE_TYPEVAR.sub(r"\1", str(parameter.annotation))
        if func.returns is not None and _PRIVATE_TYPEVAR.search(str(func.returns)):
            func.returns = _PRIVATE_TYPEVAR.sub(r"\1", str(func.returns))
