//! URL aliases (`ezurlalias_ml`, row for row: system and custom, history, language masks,
//! always-available, parent links) and URL wildcards (`ezurlwildcard`). cairn keeps the
//! reference's tree of path elements, so paths resolve as they did; the mask's bit 0
//! (always available) becomes a column of its own.

use super::Cx;
use super::ahead::{Ahead, Reader};
use super::source::{BATCH, Row, Source};
use super::target::Insert;
use anyhow::Result;
use sea_orm::ConnectionTrait;

const COLUMNS: &[&str] = &[
    "parent",
    "text_md5",
    "id",
    "link",
    "text",
    "action",
    "lang_mask",
    "is_original",
    "is_alias",
    "alias_redirects",
];

/// Reads `ezurlalias_ml` a key range at a time, keyed by (parent, text_md5): a parent with
/// many children (a folder of many items) over several batches.
#[derive(Default)]
struct Aliases {
    after: Option<(i64, String)>,
    done: bool,
}

impl Reader for Aliases {
    type Batch = Vec<Row>;

    async fn next(&mut self, src: &Source) -> Result<Option<Vec<Row>>> {
        if self.done {
            return Ok(None);
        }
        let filter = match &self.after {
            None => String::new(),
            Some((parent, md5)) => format!(
                "parent > {parent} OR (parent = {parent} AND text_md5 > '{}')",
                md5.replace('\'', "''")
            ),
        };
        let rows = src
            .select_limited(
                "ezurlalias_ml",
                COLUMNS,
                &filter,
                "parent, text_md5",
                Some(BATCH),
            )
            .await?;
        let Some(last) = rows.last() else {
            return Ok(None);
        };
        self.done = rows.len() < BATCH;
        self.after = Some((last.int("parent"), last.text("text_md5")));
        Ok(Some(rows))
    }
}

pub async fn aliases(cx: &mut Cx<'_>) -> Result<()> {
    let mut aliases = Ahead::start(cx.src.clone(), Aliases::default());
    while let Some(rows) = aliases.next().await? {
        cx.report.read("URL aliases", rows.len());
        cx.progress.advance(rows.len());
        let out: Vec<Insert> = rows
            .iter()
            .map(|r| {
                let mask = r.int("lang_mask");
                Insert {
                    from: r.describe("ezurlalias_ml"),
                    values: vec![
                        r.int("parent").into(),
                        r.text("text_md5").into(),
                        r.int("id").into(),
                        r.int("link").into(),
                        r.text("text").into(),
                        r.text("action").into(),
                        (mask & !1).into(),
                        (mask & 1 == 1).into(),
                        r.flag("is_original").into(),
                        r.flag("is_alias").into(),
                        r.flag("alias_redirects").into(),
                    ],
                }
            })
            .collect();
        cx.report.written("URL aliases", out.len());
        let columns = [
            "parent",
            "text_md5",
            "id",
            "link",
            "text",
            "action",
            "lang_mask",
            "always_available",
            "is_original",
            "is_alias",
            "alias_redirects",
        ];
        cx.out.insert("url_aliases", &columns, out).await?;
    }
    dangling(cx).await
}

/// Current aliases of Locations the source does not have (neither in the tree nor in the
/// Trash) cannot be served: they go, each named in the report.
async fn dangling(cx: &mut Cx<'_>) -> Result<()> {
    const WHERE: &str = "is_original AND action LIKE 'eznode:%' \
        AND action NOT IN (SELECT 'eznode:' || CAST(id AS TEXT) FROM locations) \
        AND action NOT IN (SELECT 'eznode:' || CAST(id AS TEXT) FROM trash)";
    let rows = (cx.out)
        .tx
        .query_all_raw(cairn_store::sql::stmt(
            cx.out.backend,
            &format!("SELECT parent, text_md5, action FROM url_aliases WHERE {WHERE}"),
            [],
        ))
        .await?;
    for r in &rows {
        let (parent, md5, action): (i64, String, String) = (
            r.try_get_by_index(0)?,
            r.try_get_by_index(1)?,
            r.try_get_by_index(2)?,
        );
        let why = format!("{action} names a Location the source does not have");
        cx.report.skip(
            "URL aliases",
            why,
            format!("ezurlalias_ml (parent={parent}, text_md5='{md5}')"),
        );
        cx.report.kind("URL aliases").written -= 1;
    }
    cx.out
        .exec(&format!("DELETE FROM url_aliases WHERE {WHERE}"), vec![])
        .await?;
    Ok(())
}

pub async fn wildcards(cx: &mut Cx<'_>) -> Result<()> {
    let rows = (cx.src)
        .select(
            "ezurlwildcard",
            &["id", "source_url", "destination_url", "type"],
            "",
            "id",
        )
        .await?;
    cx.report.read("URL wildcards", rows.len());
    cx.report.written("URL wildcards", rows.len());
    let out = rows
        .iter()
        .map(|r| Insert {
            from: r.describe("ezurlwildcard"),
            values: vec![
                r.int("id").into(),
                r.text("source_url").into(),
                r.text("destination_url").into(),
                (r.int("type") == 1).into(),
            ],
        })
        .collect();
    (cx.out)
        .insert(
            "url_wildcards",
            &["id", "source_url", "destination_url", "forward"],
            out,
        )
        .await
}
