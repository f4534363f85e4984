//! Languages (`ezcontent_language`: ids are the bit flags of language masks, kept) and
//! Sections (`ezsection`).

use super::Cx;
use super::target::Insert;
use anyhow::Result;

pub async fn languages(cx: &mut Cx<'_>) -> Result<()> {
    let rows = (cx.src)
        .select(
            "ezcontent_language",
            &["id", "locale", "name", "disabled"],
            "",
            "id",
        )
        .await?;
    cx.report.read("languages", rows.len());
    let mut out = Vec::new();
    for r in &rows {
        let (id, code) = (r.int("id"), r.text("locale"));
        if id <= 0 || id & (id - 1) != 0 || id == 1 {
            cx.report.skip(
                "languages",
                "its id is not a single bit above 1",
                r.describe("ezcontent_language"),
            );
            continue;
        }
        cx.languages.insert(id, code.clone());
        out.push(Insert {
            from: r.describe("ezcontent_language"),
            values: vec![
                id.into(),
                code.into(),
                r.text("name").into(),
                (!r.flag("disabled")).into(),
            ],
        });
    }
    cx.report.written("languages", out.len());
    (cx.out)
        .insert(
            "languages",
            &["id", "language_code", "name", "enabled"],
            out,
        )
        .await
}

pub async fn sections(cx: &mut Cx<'_>) -> Result<()> {
    let rows = (cx.src)
        .select("ezsection", &["id", "identifier", "name"], "", "id")
        .await?;
    cx.report.read("Sections", rows.len());
    cx.report.written("Sections", rows.len());
    let out = rows
        .iter()
        .map(|r| Insert {
            from: r.describe("ezsection"),
            values: vec![
                r.int("id").into(),
                r.text("identifier").into(),
                r.text("name").into(),
            ],
        })
        .collect();
    cx.out
        .insert("sections", &["id", "identifier", "name"], out)
        .await
}
