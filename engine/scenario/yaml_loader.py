"""The strict YAML loader of `engine.scenario.files` (its own module, so PyYAML is imported only
when a YAML file is read): aliases, anchors, non-standard tags, deep nesting and duplicate keys
are refused while composing, before anything is expanded or constructed."""

from __future__ import annotations

import re
from typing import Any, ClassVar

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from engine.nesting import MAX_DEPTH
from engine.scenario.files import FileError, too_deep

#: libyaml's parser when PyYAML was built with it (the usual wheels are), else None.
try:
    import yaml.cyaml as _cyaml
except ImportError:  # pragma: no cover
    _cyaml = None  # type: ignore[assignment]
_CParser: Any = getattr(_cyaml, "CParser", None)


class _Refused(yaml.MarkedYAMLError):
    """A YAML construct the loader refuses on purpose (alias, anchor, tag, depth)."""


#: Implicit tags read as plain text instead: dates stay strings, `<<` is an ordinary key.
_TEXT_NOT_TAGS = frozenset(("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:merge"))
_STANDARD_TAGS = frozenset(
    f"tag:yaml.org,2002:{kind}" for kind in ("str", "int", "float", "bool", "null", "seq", "map")
)


class _StrictComposing:
    """Refusals shared by both YAML loaders; first in their MRO so it wraps the composer."""

    yaml_implicit_resolvers: ClassVar[dict[Any, list[tuple[str, re.Pattern[str]]]]] = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag not in _TEXT_NOT_TAGS]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    _depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()  # type: ignore[attr-defined]
        mark = event.start_mark
        if isinstance(event, yaml.AliasEvent):
            raise _Refused(problem="aliases (*name) are not allowed", problem_mark=mark)
        if getattr(event, "anchor", None) is not None:
            raise _Refused(problem="anchors (&name) are not allowed", problem_mark=mark)
        tag = getattr(event, "tag", None)
        if tag is not None and tag != "!" and tag not in _STANDARD_TAGS:
            raise _Refused(problem=f"the tag {tag!r} is not allowed", problem_mark=mark)
        if self._depth >= MAX_DEPTH:
            raise _Refused(problem=f"nested deeper than {MAX_DEPTH} levels", problem_mark=mark)
        self._depth += 1
        try:
            return super().compose_node(parent, index)  # type: ignore[misc]
        finally:
            self._depth -= 1

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            seen: set[Any] = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=True)  # type: ignore[attr-defined]
                try:
                    duplicate = key in seen
                    seen.add(key)
                except TypeError:
                    continue  # unhashable: SafeConstructor reports it
                if duplicate:
                    raise _Refused(problem=f"duplicate key {key!r}", problem_mark=key_node.start_mark)
        return super().construct_mapping(node, deep=deep)  # type: ignore[misc]


class StrictYamlLoader(_StrictComposing, yaml.SafeLoader):
    """A `SafeLoader` that refuses aliases, anchors, non-standard tags, deep nesting and duplicate
    keys while composing — before anything is expanded or constructed — and reads timestamps and
    `<<` as text."""


if _CParser is not None:

    class FastStrictYamlLoader(
        _StrictComposing,
        Composer,
        _CParser,  # type: ignore[misc]
        SafeConstructor,
        Resolver,
    ):
        """`StrictYamlLoader` on libyaml's scanner and parser (several times faster on a large
        file); the composer stays Python, so the same refusals run on every event."""

        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
            Composer.__init__(self)

    #: The loader `load_document` uses for YAML.
    YAML_LOADER: type[Any] = FastStrictYamlLoader
else:  # pragma: no cover - PyYAML built without libyaml
    YAML_LOADER = StrictYamlLoader


def parse_yaml(text: str, name: str, loader_class: Any = None) -> Any:
    loader = None
    try:
        loader = (loader_class or YAML_LOADER)(text)
        return loader.get_single_data()
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise FileError(
            name,
            f"YAML error: character #x{exc.character:04x} at line {line} is not allowed ({exc.reason})",
        ) from None
    except yaml.MarkedYAMLError as exc:
        raise FileError(name, f"YAML {_yaml_reason(exc)}") from None
    except yaml.YAMLError as exc:
        raise FileError(name, f"YAML error: {exc}") from None
    except (ValueError, OverflowError) as exc:  # a standard constructor on a value it cannot build
        raise FileError(name, f"YAML error: {exc}") from None
    except RecursionError:
        raise too_deep(name) from None
    finally:
        if loader is not None:
            loader.dispose()


def _yaml_reason(exc: yaml.MarkedYAMLError) -> str:
    mark = exc.problem_mark or exc.context_mark
    where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
    kind = "refused" if isinstance(exc, _Refused) else "syntax error"
    parts = [p for p in (exc.context, exc.problem) if p]
    return f"{kind}: {'; '.join(parts) or 'invalid document'}{where}"


