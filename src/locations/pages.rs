//! Pages of a Location's children. An `offset` walks every child before the page, so a page
//! deep in a folder of 20,000 children spent most of its time skipping. Where the children's
//! order follows an index (PATH, PRIORITY, NODE_ID), the order key of the child at every
//! [`STRIDE`]-th position of a list (parent, order, the caller's permission filter) is kept,
//! and a deep page seeks to the start nearest below it and walks at most a stride from there.
//!
//! A start is used only while nothing has committed since it was found: on SQLite the commit
//! mark (`cairn_store::commits`), taken before the reads and compared again after them, so a
//! page is read from one state of the repository. PostgreSQL has no such mark and walks the
//! offset.

use crate::error::Result;
use crate::permissions::filter::Sql;
use cairn_runtime::{Limit, Offset};
use cairn_store::Connection;
use cairn_store::Reader;
use cairn_store::commits::Mark;
use cairn_store::entity::location;
use cairn_store::sql::stmt;
use sea_orm::{ConnectionTrait, EntityTrait, Value};
use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

/// Children between two kept starts: the most a deep page walks before its first row.
const STRIDE: u64 = 100;

/// Starts kept at most, over all lists (a few megabytes); beyond, all are dropped.
const STARTS: usize = 100_000;

/// Where a position of a list begins: its child's order key and id.
#[derive(Clone, Debug)]
struct Start {
    key: Value,
    id: i64,
}

/// The starts found per list, each list with the commit mark they were found under.
#[derive(Default)]
pub(crate) struct PageStarts {
    lists: Mutex<Lists>,
}

#[derive(Default)]
struct Lists {
    by_name: HashMap<String, (Mark, BTreeMap<u64, Start>)>,
    /// Starts in all lists.
    starts: usize,
}

impl PageStarts {
    /// The kept start nearest at or below `position` of `list`, found under `mark`.
    fn nearest(&self, list: &str, mark: &Mark, position: u64) -> Option<(u64, Start)> {
        let lists = self.lists.lock().unwrap_or_else(|e| e.into_inner());
        let (_, starts) = lists.by_name.get(list).filter(|(m, _)| m == mark)?;
        let (p, s) = starts.range(..=position).next_back()?;
        Some((*p, s.clone()))
    }

    /// Keeps the start of `position` of `list`, found under `mark` (the list's starts found
    /// under another mark are dropped).
    fn keep(&self, list: &str, mark: Mark, position: u64, start: Start) {
        let mut lists = self.lists.lock().unwrap_or_else(|e| e.into_inner());
        let lists = &mut *lists;
        if lists.starts >= STARTS {
            lists.by_name.clear();
            lists.starts = 0;
        }
        let entry =
            (lists.by_name.entry(list.to_string())).or_insert_with(|| (mark, BTreeMap::new()));
        if entry.0 != mark {
            lists.starts -= entry.1.len();
            *entry = (mark, BTreeMap::new());
        }
        if entry.1.insert(position, start).is_none() {
            lists.starts += 1;
        }
    }
}

/// The children of one parent as one caller may see them, in the parent's order.
pub(crate) struct Children {
    /// The joins the order needs.
    pub joins: &'static str,
    /// The `ORDER BY` of the page.
    pub order: String,
    /// The order key when an index follows it (`(key, l.id)` is then unique and ordered).
    pub seek: Option<&'static str>,
    /// The order is descending.
    pub desc: bool,
    /// The join the permission filter needs, and the filter (` AND ...`).
    pub permission_join: &'static str,
    pub only: Sql,
    pub parent: i64,
}

impl Children {
    /// `FROM ... WHERE` of every child the caller may see, and its values.
    fn from(&self) -> (String, Vec<Value>) {
        let sql = format!(
            "FROM locations l {} {} WHERE l.parent_id = ? AND l.id <> ?{}",
            self.joins, self.permission_join, self.only.sql
        );
        let mut values: Vec<Value> = vec![self.parent.into(), self.parent.into()];
        values.extend(self.only.values.iter().cloned());
        (sql, values)
    }

    /// The order key `k` and `id` of `take` children after the first `skip` from `start` on
    /// (its own child counted), in order: two seeks of the index, the rest of the start's key
    /// and the keys after it, then a sort of at most twice `skip + take` keys.
    fn after_start(&self, start: &Start, skip: u64, take: u64) -> (String, Vec<Value>) {
        let key = self.seek.expect("a list with starts follows an index");
        let (from, values) = self.from();
        let (cmp, dir, after) = if self.desc {
            ("<=", "DESC", "<")
        } else {
            (">=", "ASC", ">")
        };
        let sql = format!(
            "SELECT k, id FROM (\
               SELECT * FROM (SELECT {key} AS k, l.id AS id {from} AND {key} = ? AND l.id {cmp} ? \
                 ORDER BY l.id {dir} LIMIT ?) a \
               UNION ALL SELECT * FROM (SELECT {key} AS k, l.id AS id {from} AND {key} {after} ? \
                 ORDER BY {} LIMIT ?) b) u \
             ORDER BY k {dir}, id {dir} LIMIT ? OFFSET ?",
            self.order
        );
        let (skip, take) = (Offset(skip).sql(), Limit(Some(take)).sql());
        let both = skip.saturating_add(take);
        let mut all = values.clone();
        all.extend([start.key.clone(), start.id.into(), both.into()]);
        all.extend(values);
        all.extend([start.key.clone(), both.into(), take.into(), skip.into()]);
        (sql, all)
    }

    /// The list's identity among kept starts: parent, order and filter.
    fn name(&self) -> String {
        format!(
            "{}\u{0}{}\u{0}{}\u{0}{:?}",
            self.parent, self.order, self.only.sql, self.only.values
        )
    }
}

/// The children at `offset` (at most `limit`, all when none), in the list's order, read on
/// `db` (a request's reader).
pub(crate) async fn page(
    db: &Reader,
    starts: &PageStarts,
    list: &Children,
    offset: u64,
    limit: Option<u64>,
) -> Result<Vec<location::Model>> {
    if list.seek.is_some()
        && offset >= STRIDE
        // Taken before the reads: a commit after it changes the mark.
        && let (Some(mark), Some(take)) = (db.db().commit_mark(), limit)
        && let Some(rows) = page_from_start(db, starts, mark, list, offset, take).await?
    {
        return Ok(rows);
    }
    walk(db, list, offset, limit).await
}

/// The page by walking the offset: the page's ids first, from the index alone, so the rows
/// skipped are never read.
async fn walk(
    db: &impl Connection,
    list: &Children,
    offset: u64,
    limit: Option<u64>,
) -> Result<Vec<location::Model>> {
    let (from, mut values) = list.from();
    let (joins, order) = (list.joins, &list.order);
    let sql = format!(
        "SELECT l.* FROM locations l {joins} WHERE l.id IN \
           (SELECT l.id {from} ORDER BY {order} LIMIT ? OFFSET ?) \
         ORDER BY {order}"
    );
    let limit = Limit(limit).sql();
    values.extend([limit.into(), Offset(offset).sql().into()]);
    let backend = db.get_database_backend();
    Ok(location::Entity::find()
        .from_raw_sql(stmt(backend, &sql, values))
        .all(db)
        .await?)
}

/// The page read from the kept start nearest below it (found first when not kept); none when
/// the list ends before that start or a commit came between the reads.
async fn page_from_start(
    db: &Reader,
    starts: &PageStarts,
    mark: Mark,
    list: &Children,
    offset: u64,
    take: u64,
) -> Result<Option<Vec<location::Model>>> {
    let (name, conn) = (list.name(), db);
    let target = offset / STRIDE * STRIDE;
    let (position, start, found) = match starts.nearest(&name, &mark, target) {
        Some((p, s)) if p == target => (p, s, false),
        nearest => {
            let Some(s) = find_start(conn, list, nearest, target).await? else {
                return Ok(None);
            };
            (target, s, true)
        }
    };
    let (after_start, values) = list.after_start(&start, offset - position, take);
    let (joins, order) = (list.joins, &list.order);
    let sql = format!(
        "SELECT l.* FROM locations l {joins} WHERE l.id IN (SELECT id FROM ({after_start}) p) \
         ORDER BY {order}"
    );
    let backend = conn.get_database_backend();
    let rows = location::Entity::find()
        .from_raw_sql(stmt(backend, &sql, values))
        .all(conn)
        .await?;
    if db.db().commit_mark() == Some(mark) {
        if found {
            starts.keep(&name, mark, position, start);
        }
        Ok(Some(rows))
    } else {
        Ok(None)
    }
}

/// The start of position `target`, walked from the kept start `nearest` below it (or from the
/// first child); none when the list is shorter.
async fn find_start(
    db: &impl Connection,
    list: &Children,
    nearest: Option<(u64, Start)>,
    target: u64,
) -> Result<Option<Start>> {
    let key = list.seek.expect("a list with starts follows an index");
    let order = &list.order;
    let (sql, values) = match nearest {
        Some((p, s)) => list.after_start(&s, target - p, 1),
        None => {
            let (from, mut values) = list.from();
            let sql =
                format!("SELECT {key} AS k, l.id AS id {from} ORDER BY {order} LIMIT 1 OFFSET ?");
            values.push(Offset(target).sql().into());
            (sql, values)
        }
    };
    let backend = db.get_database_backend();
    let Some(row) = db.query_one_raw(stmt(backend, &sql, values)).await? else {
        return Ok(None);
    };
    // PATH's key is text; PRIORITY's and NODE_ID's are integers.
    let key = if key == "l.path_string" {
        row.try_get::<Option<String>>("", "k")?.map(Value::from)
    } else {
        row.try_get::<Option<i64>>("", "k")?.map(Value::from)
    };
    let id = row.try_get("", "id")?;
    Ok(key.map(|key| Start { key, id }))
}
