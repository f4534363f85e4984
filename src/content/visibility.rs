//! Hiding and revealing a content item (all its Locations, and their subtrees' visibility).

use super::ContentService;
use super::*;

pub(super) async fn hide(
    service: &ContentService,
    cx: &Caller,
    req: HideContentRequest,
) -> Result<HideContentResponse> {
    service.set_content_hidden(cx, req.content_id, true).await?;
    Ok(HideContentResponse::NoContent)
}

pub(super) async fn reveal(
    service: &ContentService,
    cx: &Caller,
    req: RevealContentRequest,
) -> Result<RevealContentResponse> {
    service
        .set_content_hidden(cx, req.content_id, false)
        .await?;
    Ok(RevealContentResponse::NoContent)
}

impl ContentService {
    /// Hides or reveals a content item: its Locations and their subtrees become invisible or
    /// visible again (where nothing else hides them).
    pub(super) async fn set_content_hidden(
        &self,
        cx: &Caller,
        id: i64,
        hidden: bool,
    ) -> Result<()> {
        self.db
            .write(cx.change(), async |tx| {
                tree::hold(tx).await?;
                let c = self.visible_content(tx, cx, id).await?;
                self.authorize_content(tx, cx, &c, &[Target::Destination])
                    .await?;
                if c.is_hidden == hidden {
                    return Ok(());
                }
                let mut ca = c.clone().into_active_model();
                ca.is_hidden = Set(hidden);
                let c = cairn_store::write::update(tx, ca).await?;
                // What shows it: the item, and its Locations' subtrees (their visibility).
                for l in tree::touch_item(tx, &c).await? {
                    tree::recompute_visibility(tx, &l).await?;
                    tree::touch_subtree(tx, &l, false).await?;
                }
                Ok(())
            })
            .await
    }
}
