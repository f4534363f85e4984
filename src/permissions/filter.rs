//! The same rules as [`super::evaluate`], as one SQL condition on the rows of a list or a
//! search: limitations become conditions on the content row (and on the Location row when
//! the list is of Locations), so pages and counts only ever see readable rows.

use super::evaluate::ids;
use crate::grants::policies::Lim;
use crate::grants::{Access, Grants};
use sea_orm::sea_query::{Expr, SimpleExpr};
use sea_orm::{DbBackend, Value};

/// Where the rows of a list are: the SQL names of its content row and, for a list of
/// Locations (or Trash items), of its Location row.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scope<'a> {
    pub content: &'a str,
    pub location: Option<&'a str>,
    /// The Location rows are of `locations`, which carry their content's Section: a Section
    /// limitation reads it there, and a page of them needs no content row for it.
    pub location_sections: bool,
}

/// A condition with `?` placeholders and its values.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Sql {
    pub sql: String,
    pub values: Vec<Value>,
}

impl Sql {
    fn new(sql: impl Into<String>, values: Vec<Value>) -> Sql {
        Sql {
            sql: sql.into(),
            values,
        }
    }

    fn never() -> Sql {
        Sql::new("1 = 0", vec![])
    }

    fn always() -> Sql {
        Sql::new("1 = 1", vec![])
    }

    fn join(parts: Vec<Sql>, op: &str, empty: Sql) -> Sql {
        if parts.is_empty() {
            return empty;
        }
        let mut out = Sql::new("(", vec![]);
        for (i, p) in parts.into_iter().enumerate() {
            if i > 0 {
                out.sql.push_str(op);
            }
            out.sql.push_str(&p.sql);
            out.values.extend(p.values);
        }
        out.sql.push(')');
        out
    }

    /// The condition for the query builder of `backend` (whose custom expressions take
    /// PostgreSQL's numbered placeholders there).
    pub(crate) fn expr(&self, backend: DbBackend) -> SimpleExpr {
        let sql = cairn_store::sql::placeholders(backend, &self.sql);
        Expr::cust_with_values(sql, self.values.clone())
    }

    /// ` AND <condition>`, to append to a WHERE clause.
    pub(crate) fn and_prefix(self) -> Sql {
        Sql::new(format!(" AND {}", self.sql), self.values)
    }
}

/// Which rows of a list the caller may see.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Filter {
    All,
    Nothing,
    Only(Sql),
}

impl Filter {
    /// The condition to AND into a query (`1 = 1` when every row passes).
    pub(crate) fn sql(&self) -> Sql {
        match self {
            Filter::All => Sql::always(),
            Filter::Nothing => Sql::never(),
            Filter::Only(s) => s.clone(),
        }
    }

    /// Whether the condition reads the row named `alias` (so a query must join it).
    pub(crate) fn reads(&self, alias: &str) -> bool {
        matches!(self, Filter::Only(s) if s.sql.contains(&format!("{alias}.")))
    }

    /// The condition for the query builder of `backend`.
    pub(crate) fn expr(&self, backend: DbBackend) -> SimpleExpr {
        self.sql().expr(backend)
    }
}

/// The rows on which the user may use `module`/`function`.
pub(crate) fn filter(grants: &Grants, module: &str, function: &str, scope: Scope<'_>) -> Filter {
    let sets = match grants.has_access(module, function) {
        Access::All => return Filter::All,
        Access::Nothing => return Filter::Nothing,
        Access::Limited(sets) => sets,
    };
    let mut any = Vec::new();
    for (assignment, policies) in sets {
        let policies: Vec<Sql> = policies
            .iter()
            .map(|p| {
                let all: Vec<Sql> = p
                    .limitations
                    .iter()
                    .map(|l| limitation(grants, l, scope))
                    .collect();
                Sql::join(all, " AND ", Sql::always())
            })
            .collect();
        let mut both = vec![Sql::join(policies, " OR ", Sql::never())];
        if let Some(l) = assignment {
            both.push(limitation(grants, l, scope));
        }
        any.push(Sql::join(both, " AND ", Sql::always()));
    }
    Filter::Only(Sql::join(any, " OR ", Sql::never()))
}

/// `<column> IN (?, ...)`, or never when there is no value.
fn is_in(column: &str, values: Vec<i64>) -> Sql {
    if values.is_empty() {
        return Sql::never();
    }
    let marks = vec!["?"; values.len()].join(", ");
    Sql::new(
        format!("{column} IN ({marks})"),
        values.into_iter().map(Value::from).collect(),
    )
}

/// A condition on the Locations of the row: its own Location row in a list of Locations,
/// else any Location of its content.
fn placed(scope: Scope<'_>, cond: impl Fn(&str) -> Sql) -> Sql {
    match scope.location {
        Some(l) => cond(l),
        None => {
            let inner = cond("pl");
            Sql::new(
                format!(
                    "EXISTS (SELECT 1 FROM locations pl WHERE pl.content_id = {}.id AND {})",
                    scope.content, inner.sql
                ),
                inner.values,
            )
        }
    }
}

fn subtree(values: &[String], scope: Scope<'_>) -> Sql {
    // Path strings are digits and slashes: nothing to escape in a LIKE pattern.
    let paths: Vec<&String> = values
        .iter()
        .filter(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '/'))
        .collect();
    placed(scope, |l| {
        Sql::join(
            paths
                .iter()
                .map(|p| {
                    Sql::new(
                        format!("{l}.path_string LIKE ?"),
                        vec![format!("{p}%").into()],
                    )
                })
                .collect(),
            " OR ",
            Sql::never(),
        )
    })
}

fn limitation(grants: &Grants, l: &Lim, scope: Scope<'_>) -> Sql {
    let c = scope.content;
    let me = grants.user_id;
    match l.identifier.as_str() {
        "Class" => is_in(&format!("{c}.content_type_id"), ids(&l.values).collect()),
        "Section" => {
            let at = match scope.location {
                Some(loc) if scope.location_sections => loc,
                _ => c,
            };
            is_in(&format!("{at}.section_id"), ids(&l.values).collect())
        }
        "Owner" => Sql::new(
            format!("({c}.owner_id = ? OR {c}.id = ?)"),
            vec![me.into(), me.into()],
        ),
        "Group" => {
            let parents = is_in("gl.parent_id", grants.parents.clone());
            let mut values: Vec<Value> = vec![me.into()];
            values.extend(parents.values);
            Sql::new(
                format!(
                    "({c}.owner_id = ? OR {c}.owner_id IN (SELECT gl.content_id FROM locations gl WHERE {}))",
                    parents.sql
                ),
                values,
            )
        }
        "Node" => placed(scope, |loc| is_in(&format!("{loc}.id"), ids(&l.values).collect())),
        "Subtree" => subtree(&l.values, scope),
        "State" => {
            Sql::join(
                grants
                    .states_by_group(&ids(&l.values).collect::<Vec<_>>())
                    .into_values()
                    .map(|in_group| {
                        let cond = is_in("cs.state_id", in_group);
                        Sql::new(
                            format!(
                                "EXISTS (SELECT 1 FROM content_object_states cs WHERE cs.content_id = {c}.id AND {})",
                                cond.sql
                            ),
                            cond.values,
                        )
                    })
                    .collect(),
                " AND ",
                Sql::never(),
            )
        }
        // The reference's criterion: a translation of the current version in one of the
        // languages, or an item always available.
        "Language" => {
            let codes: Vec<Sql> = l
                .values
                .iter()
                .map(|code| {
                    Sql::new(
                        "(',' || lv.language_codes || ',') LIKE ?",
                        vec![format!("%,{code},%").into()],
                    )
                })
                .collect();
            let any = Sql::join(codes, " OR ", Sql::never());
            Sql::new(
                format!(
                    "({c}.always_available OR EXISTS (SELECT 1 FROM content_versions lv \
                     WHERE lv.content_id = {c}.id AND lv.version_no = {c}.current_version AND {}))",
                    any.sql
                ),
                any.values,
            )
        }
        // Limitations that do not apply to reading stored rows deny, as in `evaluate`.
        _ => Sql::never(),
    }
}
