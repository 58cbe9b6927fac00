// The service worker for web push: shows each notification and opens its game when clicked.
"use strict";
self.addEventListener("push", (event) => {
  const data = event.data ? event.data.json() : { title: "Great Game", body: "" };
  event.waitUntil(self.registration.showNotification(data.title, {
    body: data.body, data: { url: data.url }, icon: "favicon.svg",
  }));
});
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  if (event.notification.data && event.notification.data.url) {
    event.waitUntil(clients.openWindow(event.notification.data.url));
  }
});
