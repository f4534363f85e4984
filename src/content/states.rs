//! The Object states of a content item: read, and set one per group.

use super::ContentService;
use super::*;
use cairn_store::Connection;

pub(super) async fn of_content(
    service: &ContentService,
    cx: &Caller,
    req: GetObjectStatesForContentRequest,
) -> Result<GetObjectStatesForContentResponse> {
    let db = cx.reader();
    let c = service.visible_content(db, cx, req.content_id).await?;
    let body = service.content_states_body(db, c.id).await?;
    Ok(GetObjectStatesForContentResponse::Ok {
        etag: ETag::of(&body),
        body,
    })
}

pub(super) async fn set(
    service: &ContentService,
    cx: &Caller,
    req: SetObjectStatesForContentRequest,
) -> Result<SetObjectStatesForContentResponse> {
    let mut states = Vec::new();
    for href in &req.body.object_state {
        let (_, id) = hrefs::read::load_object_state(href)
            .ok_or_else(|| Error::BadRequest(format!("'{href}' is not an Object state")))?;
        states.push(id);
    }
    service
        .db
        .write(cx.change(), async |tx| {
            let c = service.visible_content(tx, cx, req.content_id).await?;
            let targets: Vec<Target> = states.iter().map(|s| Target::State(*s)).collect();
            service.authorize_content(tx, cx, &c, &targets).await?;
            preconditions::if_match(&req.if_match, async || {
                service.content_states_body(tx, c.id).await
            })
            .await?;
            // What shows it: the item and its Locations (who may read them follows its states).
            tree::touch_item(tx, &c).await?;
            crate::object_states::assign_states(tx, c.id, &states).await
        })
        .await?;
    let body = service
        .content_states_body(cx.reader(), req.content_id)
        .await?;
    Ok(SetObjectStatesForContentResponse::Ok {
        etag: ETag::of(&body),
        body,
    })
}

impl ContentService {
    pub(super) async fn content_states_body(
        &self,
        db: &impl Connection,
        content_id: i64,
    ) -> Result<ContentObjectStates> {
        let states = crate::object_states::content_states(db, content_id).await?;
        Ok(ContentObjectStates {
            object_state: states
                .into_iter()
                .map(|(g, s)| hrefs::load_object_state(g, s))
                .collect(),
        })
    }
}
