//! Roles (`ezrole`: version 0 published, else a draft of the Role its version names),
//! Policies (`ezpolicy`), their limitations with values (`ezpolicy_limitation`,
//! `ezpolicy_limitation_value`) and Role assignments with their limitation (`ezuser_role`).

use super::Cx;
use super::target::Insert;
use anyhow::Result;
use std::collections::{BTreeMap, HashSet};

pub async fn roles(cx: &mut Cx<'_>) -> Result<()> {
    let rows = cx
        .src
        .select("ezrole", &["id", "name", "version"], "", "id")
        .await?;
    cx.report.read("Roles", rows.len());
    let mut roles = HashSet::new();
    let out: Vec<Insert> = rows
        .iter()
        .map(|r| {
            roles.insert(r.int("id"));
            let version = r.int("version");
            Insert {
                from: r.describe("ezrole"),
                values: vec![
                    r.int("id").into(),
                    r.text("name").into(),
                    i64::from(version != 0).into(),
                    (version != 0).then_some(version).into(),
                ],
            }
        })
        .collect();
    cx.report.written("Roles", out.len());
    cx.out
        .insert("roles", &["id", "identifier", "status", "original_id"], out)
        .await?;

    let policies = (cx.src)
        .select(
            "ezpolicy",
            &[
                "id",
                "role_id",
                "module_name",
                "function_name",
                "original_id",
            ],
            "",
            "id",
        )
        .await?;
    cx.report.read("Policies", policies.len());
    let mut kept = std::collections::HashMap::new();
    let mut out = Vec::new();
    for p in &policies {
        if !roles.contains(&p.int("role_id")) {
            cx.report.skip(
                "Policies",
                "its Role does not exist",
                p.describe("ezpolicy"),
            );
            continue;
        }
        kept.insert(
            p.int("id"),
            (p.text("module_name"), p.text("function_name")),
        );
        let original = p.int("original_id");
        out.push(Insert {
            from: p.describe("ezpolicy"),
            values: vec![
                p.int("id").into(),
                p.int("role_id").into(),
                p.text("module_name").into(),
                p.text("function_name").into(),
                (original != 0).then_some(original).into(),
            ],
        });
    }
    cx.report.written("Policies", out.len());
    let columns = ["id", "role_id", "module", "function", "original_id"];
    cx.out.insert("policies", &columns, out).await?;

    let limitations = (cx.src)
        .select(
            "ezpolicy_limitation",
            &["id", "policy_id", "identifier"],
            "",
            "id",
        )
        .await?;
    let values = (cx.src)
        .select(
            "ezpolicy_limitation_value",
            &["id", "limitation_id", "value"],
            "",
            "id",
        )
        .await?;
    let mut by_limitation: BTreeMap<i64, Vec<String>> = BTreeMap::new();
    for v in &values {
        by_limitation
            .entry(v.int("limitation_id"))
            .or_default()
            .push(v.text("value"));
    }
    cx.report.read("Policy limitations", limitations.len());
    let mut out = Vec::new();
    for l in &limitations {
        let Some((module, function)) = kept.get(&l.int("policy_id")) else {
            cx.report.skip(
                "Policy limitations",
                "its Policy does not exist",
                l.describe("ezpolicy_limitation"),
            );
            continue;
        };
        let identifier = l.text("identifier");
        if !crate::roles::limitations::accepted(module, function).contains(&identifier.as_str()) {
            let why = format!(
                "{module}/{function} does not take the limitation {identifier} (the policy map)"
            );
            cx.report
                .skip("Policy limitations", why, l.describe("ezpolicy_limitation"));
            continue;
        }
        let values = by_limitation.remove(&l.int("id")).unwrap_or_default();
        out.push(Insert {
            from: l.describe("ezpolicy_limitation"),
            values: vec![
                l.int("id").into(),
                l.int("policy_id").into(),
                l.text("identifier").into(),
                serde_json::to_string(&values)?.into(),
            ],
        });
    }
    cx.report.written("Policy limitations", out.len());
    let columns = ["id", "policy_id", "identifier", "limitation_values"];
    cx.out.insert("policy_limitations", &columns, out).await?;

    let assignments = (cx.src)
        .select(
            "ezuser_role",
            &[
                "id",
                "role_id",
                "contentobject_id",
                "limit_identifier",
                "limit_value",
            ],
            "",
            "id",
        )
        .await?;
    cx.report.read("Role assignments", assignments.len());
    let mut out = Vec::new();
    for a in &assignments {
        let from = a.describe("ezuser_role");
        if !roles.contains(&a.int("role_id")) {
            cx.report
                .skip("Role assignments", "its Role does not exist", from);
            continue;
        }
        if !cx.contents.contains(&a.int("contentobject_id")) {
            cx.report
                .skip("Role assignments", "its user or group is not carried", from);
            continue;
        }
        let identifier = a.text("limit_identifier");
        let (identifier, values) = if identifier.is_empty() {
            (None, None)
        } else {
            (
                Some(identifier),
                Some(serde_json::to_string(&[a.text("limit_value")])?),
            )
        };
        out.push(Insert {
            from,
            values: vec![
                a.int("id").into(),
                a.int("role_id").into(),
                a.int("contentobject_id").into(),
                identifier.into(),
                values.into(),
            ],
        });
    }
    cx.report.written("Role assignments", out.len());
    let columns = [
        "id",
        "role_id",
        "content_id",
        "limitation_identifier",
        "limitation_values",
    ];
    cx.out.insert("role_assignments", &columns, out).await
}
