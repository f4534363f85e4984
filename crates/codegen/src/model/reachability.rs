//! What follows from which types reach which: input and output directions, boxed fields.

use super::{Api, Ty, TypeBody};
use indexmap::IndexSet;

impl Api {
    /// Marks types reachable from response bodies (and streams) as output and from request bodies as input.
    pub(super) fn mark_directions(&mut self) {
        let mut outputs: Vec<String> = vec!["ErrorMessage".into()];
        let mut inputs: Vec<String> = Vec::new();
        for e in self.endpoints() {
            inputs.extend(e.inputs.iter().cloned());
            outputs.extend(e.stream.iter().cloned());
            for r in &e.responses {
                outputs.extend(r.bodies.iter().cloned());
            }
        }
        for name in self.reachable(outputs) {
            self.types[&name].output = true;
        }
        for name in self.reachable(inputs) {
            self.types[&name].input = true;
        }
    }

    fn reachable(&self, roots: Vec<String>) -> IndexSet<String> {
        let mut seen = IndexSet::new();
        let mut stack = roots;
        while let Some(name) = stack.pop() {
            if !seen.insert(name.clone()) {
                continue;
            }
            stack.extend(self.direct_deps(&name));
        }
        seen
    }

    fn direct_deps(&self, name: &str) -> Vec<String> {
        match &self.types[name].body {
            TypeBody::OneOf(m) => m.clone(),
            TypeBody::Struct(fields) => fields
                .iter()
                .filter_map(|f| named_in(&f.ty).map(str::to_string))
                .collect(),
        }
    }

    /// Boxes every field whose type leads back to the enclosing type.
    pub(super) fn mark_boxes(&mut self) {
        let names: Vec<String> = self.types.keys().cloned().collect();
        for name in names {
            let TypeBody::Struct(fields) = &self.types[&name].body else {
                continue;
            };
            let boxed: Vec<bool> = fields
                .iter()
                .map(|f| {
                    named_in(&f.ty).is_some_and(|t| {
                        !matches!(f.ty, Ty::List { .. })
                            && self.reachable(vec![t.to_string()]).contains(&name)
                    })
                })
                .collect();
            if let TypeBody::Struct(fields) = &mut self.types[&name].body {
                for (f, b) in fields.iter_mut().zip(boxed) {
                    f.boxed = b;
                }
            }
        }
    }
}

fn named_in(ty: &Ty) -> Option<&str> {
    match ty {
        Ty::Named(n) => Some(n),
        Ty::List { item, .. } => named_in(item),
        _ => None,
    }
}
