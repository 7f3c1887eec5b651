"""nn.Mutator: rewrites a module tree in place. visit(name, node) visits the
children of `node` (a Module's attributes, a ModuleList's items, a
ModuleDict's values) and replaces each by what the matching visit_* method
returns; the default visit_* methods go on into the child. Names are dotted
paths from the name given to the first visit ("model.layers.0.weight")."""
from .core import Effect, Module, ModuleDict, ModuleList, Parameter

__all__ = ["Mutator"]


class Mutator:
    """Override visit_module / visit_modulelist / visit_moduledict /
    visit_param / visit_effect to replace nodes of those kinds; each gets
    the node's dotted name and the node and returns what takes its place."""

    def visit_module(self, name, node):
        return self.visit(name, node)

    def visit_modulelist(self, name, node):
        return self.visit(name, node)

    def visit_moduledict(self, name, node):
        return self.visit(name, node)

    def visit_param(self, name, node):
        return self.visit(name, node)

    def visit_effect(self, name, node):
        return self.visit(name, node)

    def _visit_child(self, name, child):
        """What replaces `child`; None when it is of no kind visited (it
        stays as it is)."""
        # The containers first: they are Modules too.
        for kind, method in ((ModuleDict, self.visit_moduledict),
                             (ModuleList, self.visit_modulelist), (Module, self.visit_module),
                             (Effect, self.visit_effect), (Parameter, self.visit_param)):
            if isinstance(child, kind):
                return True, method(name, child)
        return False, None

    def visit(self, name, node):
        """Visits node's children in place; returns node."""
        def child_name(key):
            return f"{name}.{key}" if name else str(key)

        if isinstance(node, ModuleList):
            for index, item in enumerate(list(node.modules)):
                visited, new = self._visit_child(child_name(index), item)
                if visited:
                    node.modules[index] = new
        elif isinstance(node, ModuleDict):
            for key, item in list(node.modules.items()):
                visited, new = self._visit_child(child_name(key), item)
                if visited:
                    node.modules[key] = new
        elif isinstance(node, Module):
            for key, value in list(vars(node).items()):
                visited, new = self._visit_child(child_name(key), value)
                if visited:
                    setattr(node, key, new)
        return node
