//! The feed as Server-Sent Events: the events after the client's, then each change as it
//! commits, and a reconnection that misses nothing.

use super::*;

/// `Accept: text/event-stream`: the events after the client's, then each change as it
/// commits; a client that reconnects with `Last-Event-ID` misses nothing.
#[tokio::test]
async fn the_feed_streams_server_sent_events_and_resumes() {
    let app = TestApp::new().await;
    let start = events(&app, "").admin().send().await.json()["EventList"]["last"]
        .as_i64()
        .unwrap();
    rename_section(&app, "S1").send().await.assert(200);
    let mut stream = (app.get(&format!("/events?after={start}")).admin())
        .header("accept", "text/event-stream")
        .open()
        .await;
    assert_eq!(stream.status, 200);
    assert_eq!(
        stream.headers["content-type"].to_str().unwrap(),
        "text/event-stream"
    );
    let first = stream.events(1).await;
    assert_eq!(first[0].0, (start + 1).to_string());
    let data: serde_json::Value = serde_json::from_str(&first[0].1).unwrap();
    assert_eq!(data["Event"]["operation"], "updateSection");
    assert_eq!(data["Event"]["id"], start + 1);
    assert_eq!(
        data["Event"]["_media-type"],
        "application/vnd.ibexa.api.Event+json"
    );
    // A change made while the stream is open comes at once.
    rename_section(&app, "S2").send().await.assert(200);
    let live = stream.events(1).await;
    assert_eq!(live[0].0, (start + 2).to_string());
    drop(stream);
    // Reconnecting after the first: the second, then the ones made meanwhile.
    rename_section(&app, "S3").send().await.assert(200);
    let mut again = (app.get("/events").admin())
        .header("accept", "text/event-stream")
        .header("Last-Event-ID", &(start + 1).to_string())
        .open()
        .await;
    let ids: Vec<String> = again.events(2).await.into_iter().map(|e| e.0).collect();
    assert_eq!(ids, [(start + 2).to_string(), (start + 3).to_string()]);
    // The server stopping ends the stream (requests in flight can finish).
    app.service.feed.stop();
    assert!(again.ends_within(5).await);
    // An error is an ErrorMessage, before any event.
    let refused = (app.get("/events").admin())
        .header("accept", "text/event-stream")
        .header("Last-Event-ID", "x")
        .open()
        .await;
    assert_eq!(refused.status, 400);
}
