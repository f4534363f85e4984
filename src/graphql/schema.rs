//! The executable schema: the fixed part (`spec/graphql/platform.graphql`) and the domain part
//! (`domain.rs`) parsed as SDL and made into async-graphql's dynamic types, each field with its
//! resolver (`resolve.rs`); rebuilt when the content types or languages change.

use super::domain::Domain;
use super::resolve;
use async_graphql::dynamic::{
    Enum, Field, InputObject, InputValue, Interface, InterfaceField, Object, Scalar, Schema,
    TypeRef, Union,
};
use async_graphql::parser::types::{
    BaseType, FieldDefinition, Type, TypeKind, TypeSystemDefinition,
};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// The fixed part of the schema, the reference's own types.
pub const PLATFORM: &str = include_str!("../../spec/graphql/platform.graphql");

/// Queries deeper than this are refused before they run.
pub const MAX_DEPTH: usize = 20;
/// Queries of more fields than this (each field counts 1, a connection its page size) are
/// refused before they run.
pub const MAX_COMPLEXITY: usize = 5_000;

/// A schema made for one state of the content types.
pub struct Built {
    pub schema: Schema,
    pub domain: Arc<Domain>,
}

/// The current schema, kept until the content types change.
#[derive(Default)]
pub struct Schemas(Mutex<Option<(u64, Arc<Built>)>>);

impl Schemas {
    /// The schema for the content types of `generation` (the content type cache's), made by
    /// `make` when the kept one is older.
    pub async fn current(
        &self,
        generation: u64,
        make: impl AsyncFnOnce() -> anyhow::Result<Built>,
    ) -> anyhow::Result<Arc<Built>> {
        if let Some((g, built)) = self.lock().as_ref()
            && *g == generation
        {
            return Ok(built.clone());
        }
        let built = Arc::new(make().await?);
        *self.lock() = Some((generation, built.clone()));
        Ok(built)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<(u64, Arc<Built>)>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The SDL of the whole schema: the domain's types, then the fixed ones.
pub fn sdl(domain: &Domain) -> String {
    format!("{}\n{PLATFORM}", domain.sdl)
}

fn type_ref(t: &Type) -> TypeRef {
    let inner = match &t.base {
        BaseType::Named(n) => TypeRef::Named(n.to_string().into()),
        BaseType::List(t) => TypeRef::List(Box::new(type_ref(t))),
    };
    match t.nullable {
        true => inner,
        false => TypeRef::NonNull(Box::new(inner)),
    }
}

fn named(t: &Type) -> &str {
    match &t.base {
        BaseType::Named(n) => n.as_str(),
        BaseType::List(t) => named(t),
    }
}

/// The arguments of a field definition, with their defaults.
fn arguments(f: &FieldDefinition) -> impl Iterator<Item = InputValue> + '_ {
    f.arguments.iter().map(|a| {
        let a = &a.node;
        let arg = InputValue::new(a.name.node.as_str(), type_ref(&a.ty.node));
        match &a.default_value {
            Some(v) => arg.default_value(v.node.clone()),
            None => arg,
        }
    })
}

/// Builds the executable schema of `domain`.
pub fn build(domain: Arc<Domain>) -> anyhow::Result<Built> {
    let text = sdl(&domain);
    let doc = async_graphql::parser::parse_schema(&text)
        .map_err(|e| anyhow::anyhow!("the GraphQL schema does not parse: {e}"))?;
    let defs: Vec<_> = doc
        .definitions
        .iter()
        .filter_map(|d| match d {
            TypeSystemDefinition::Type(t) => Some(&t.node),
            _ => None,
        })
        .collect();
    // Interfaces and unions: values of these types name their concrete type.
    let abstract_types: HashSet<&str> = defs
        .iter()
        .filter(|d| matches!(d.kind, TypeKind::Interface(_) | TypeKind::Union(_)))
        .map(|d| d.name.node.as_str())
        .collect();
    let mutation = defs.iter().any(|d| d.name.node == "ItemMutation");
    let mut builder = Schema::build("Domain", mutation.then_some("ItemMutation"), None);
    for d in &defs {
        let name = d.name.node.as_str();
        builder = match &d.kind {
            TypeKind::Scalar => builder.register(Scalar::new(name)),
            TypeKind::Object(o) => {
                let mut object = Object::new(name);
                for i in &o.implements {
                    object = object.implement(i.node.as_str());
                }
                for f in &o.fields {
                    let f = &f.node;
                    let ty = &f.ty.node;
                    let resolver = resolve::resolver(
                        name,
                        f.name.node.as_str(),
                        abstract_types.contains(named(ty)),
                        &domain,
                    );
                    let mut field =
                        Field::new(f.name.node.as_str(), type_ref(ty), move |ctx| resolver(ctx));
                    for arg in arguments(f) {
                        field = field.argument(arg);
                    }
                    object = object.field(field);
                }
                builder.register(object)
            }
            TypeKind::Interface(i) => {
                let mut interface = Interface::new(name);
                for f in &i.fields {
                    let f = &f.node;
                    let mut field = InterfaceField::new(f.name.node.as_str(), type_ref(&f.ty.node));
                    for arg in arguments(f) {
                        field = field.argument(arg);
                    }
                    interface = interface.field(field);
                }
                builder.register(interface)
            }
            TypeKind::Union(u) => {
                let mut union = Union::new(name);
                for m in &u.members {
                    union = union.possible_type(m.node.as_str());
                }
                builder.register(union)
            }
            TypeKind::Enum(e) => builder.register(
                Enum::new(name).items(e.values.iter().map(|v| v.node.value.node.to_string())),
            ),
            TypeKind::InputObject(i) => {
                let mut input = InputObject::new(name);
                for f in &i.fields {
                    let f = &f.node;
                    input =
                        input.field(InputValue::new(f.name.node.as_str(), type_ref(&f.ty.node)));
                }
                builder.register(input)
            }
        };
    }
    let schema = builder
        .limit_depth(MAX_DEPTH)
        .limit_complexity(MAX_COMPLEXITY)
        .finish()
        .map_err(|e| anyhow::anyhow!("the GraphQL schema is not valid: {e}"))?;
    Ok(Built { schema, domain })
}
