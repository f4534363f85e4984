//! Who may read what: content items and versions as the caller may see them, and the
//! checks a Section change needs.

use super::*;
use cairn_store::Connection;

impl Shared {
    /// The content item, if the caller may read it (`content/read`, and `content/versionread`
    /// for a draft never published); 401 otherwise.
    pub(crate) async fn visible_content(
        &self,
        db: &impl Connection,
        cx: &Caller,
        id: i64,
    ) -> Result<content::Model> {
        let c = rows::content(db, id).await?;
        self.check_readable(db, cx, &c).await?;
        Ok(c)
    }

    /// [`Self::visible_content`] read with its version `no` (its current version when none)
    /// and its main Location's path, in one query; the version is not checked.
    pub(crate) async fn visible_read(
        &self,
        db: &impl Connection,
        cx: &Caller,
        id: i64,
        no: Option<i64>,
    ) -> Result<rows::ContentRead> {
        let read = rows::content_read(db, id, no).await?;
        self.check_readable(db, cx, &read.content).await?;
        Ok(read)
    }

    /// The content item and its version `no` (its current version when none), if the caller
    /// may read both: one query.
    pub(crate) async fn visible_content_version(
        &self,
        db: &impl Connection,
        cx: &Caller,
        id: i64,
        no: Option<i64>,
    ) -> Result<(content::Model, content_version::Model)> {
        let read = self.visible_read(db, cx, id, no).await?;
        let no = no.unwrap_or(read.content.current_version);
        let v = (self.readable_version(db, cx, &read.content, read.version, no)).await?;
        Ok((read.content, v))
    }

    /// 401 unless the caller may read `c`.
    async fn check_readable(
        &self,
        db: &impl Connection,
        cx: &Caller,
        c: &content::Model,
    ) -> Result<()> {
        let facts = ContentFacts::of(c);
        self.authorize(
            db,
            cx,
            ("content", "read"),
            Subject::Content(facts.clone()),
            &[],
        )
        .await?;
        if c.status == content::DRAFT {
            let facts = facts.with_version_status(content_version::DRAFT);
            self.authorize(
                db,
                cx,
                ("content", "versionread"),
                Subject::Content(facts),
                &[],
            )
            .await?;
        }
        Ok(())
    }

    /// A new Section for `c` needs `section/assign` (its `NewSection` limitation names the
    /// Sections the caller may assign).
    pub(crate) async fn authorize_section_assign(
        &self,
        db: &impl Connection,
        cx: &Caller,
        c: &content::Model,
        section: i64,
    ) -> Result<()> {
        let facts = Subject::Content(ContentFacts::of(c));
        let to = [Target::Section(section)];
        self.authorize(db, cx, ("section", "assign"), facts, &to)
            .await
    }

    /// Whether the caller may read version `v` of `c`: a version other than the published
    /// one needs `content/versionread`.
    pub(super) async fn may_read_version(
        &self,
        db: &impl Connection,
        cx: &Caller,
        c: &content::Model,
        v: &content_version::Model,
    ) -> Result<bool> {
        if v.status == content_version::PUBLISHED {
            return Ok(true);
        }
        let facts = ContentFacts::of(c).with_version_status(v.status);
        self.allows(
            db,
            cx,
            ("content", "versionread"),
            Subject::Content(facts),
            &[],
        )
        .await
    }

    /// The version, if the caller may read it (401 otherwise).
    pub(super) async fn visible_version(
        &self,
        db: &impl Connection,
        cx: &Caller,
        c: &content::Model,
        no: i64,
    ) -> Result<content_version::Model> {
        let v = rows::version(db, c.id, no).await?;
        self.readable_version(db, cx, c, Some(v), no).await
    }

    /// Version `no` of `c` as read (none: there is no such version, 404), if the caller may
    /// read it (401 otherwise).
    async fn readable_version(
        &self,
        db: &impl Connection,
        cx: &Caller,
        c: &content::Model,
        v: Option<content_version::Model>,
        no: i64,
    ) -> Result<content_version::Model> {
        let v = v.ok_or_else(|| Error::not_found("Version", format!("{}/{no}", c.id)))?;
        if !self.may_read_version(db, cx, c, &v).await? {
            return Err(denied("content", "versionread"));
        }
        Ok(v)
    }
}
