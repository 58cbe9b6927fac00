// Web push opt-in on the settings page (games.reach): subscribes this browser with the server's
// VAPID key and sends the subscription to the API; a second button unsubscribes.
"use strict";
(function () {
  const box = document.getElementById("push");
  if (!box || !("serviceWorker" in navigator) || !("PushManager" in window)) return;
  const key = box.dataset.key;
  if (!key) return;
  box.hidden = false;
  const state = document.getElementById("push-state");
  const csrf = document.querySelector("input[name=csrfmiddlewaretoken]").value;
  const api = box.dataset.api;

  function bytes(base64url) {
    const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "==".slice((base64url.length + 2) % 4 || 2));
    return Uint8Array.from(text, (c) => c.charCodeAt(0));
  }

  async function send(method, body) {
    const answer = await fetch(api, {
      method, credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(String(answer.status));
  }

  async function registration() {
    return navigator.serviceWorker.register(box.dataset.worker);
  }

  document.getElementById("push-on").addEventListener("click", async () => {
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        state.textContent = box.dataset.refused;
        return;
      }
      const reg = await registration();
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(key) });
      await send("POST", sub.toJSON());
      state.textContent = box.dataset.on;
    } catch (error) {
      state.textContent = box.dataset.failed + " " + error.message;
    }
  });

  document.getElementById("push-off").addEventListener("click", async () => {
    const reg = await registration();
    const sub = await reg.pushManager.getSubscription();
    if (sub) {
      await send("DELETE", { endpoint: sub.endpoint });
      await sub.unsubscribe();
    }
    state.textContent = box.dataset.off;
  });
})();
