// A minimal browser client for the chat example.
export const PAGE = `<!doctype html>
<meta charset="utf-8"><title>cellgate chat</title>
<style>body{font:15px system-ui;margin:2em;max-width:40em}#log{border:1px solid #ccc;height:20em;overflow:auto;padding:.5em}</style>
<p>Room <input id="room" value="lobby"> as <input id="user" value="guest"> <button id="join">join</button></p>
<div id="log"></div>
<form id="f"><input id="text" size="50" autocomplete="off"> <button>send</button></form>
<script>
let ws, n = 0;
const log = (t) => { const p = document.createElement("div"); p.textContent = t; document.getElementById("log").append(p); };
document.getElementById("join").onclick = () => {
  if (ws) ws.close();
  const u = new URL("/room/" + encodeURIComponent(room.value) + "?user=" + encodeURIComponent(user.value), location.href);
  u.protocol = u.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(u);
  ws.onmessage = (e) => { const m = JSON.parse(e.data); if (m.type === "msg") log(m.from + ": " + m.text); };
  ws.onclose = (e) => log("(disconnected: " + e.code + " " + e.reason + ")");
};
document.getElementById("f").onsubmit = (e) => {
  e.preventDefault();
  if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "msg", id: String(++n), text: text.value }));
  text.value = "";
};
</script>`;
