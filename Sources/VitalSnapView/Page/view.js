// The capture view's page: the camera's frames on a canvas, the peripheral's overlay where the display should be
// held, each frame's partial reading and glare, and the steady reading to accept, edit, retake or cancel.
// Everything comes over one WebSocket from the vitalsnap process that served this page; nothing from elsewhere.

const part = (role) => document.querySelector(`[data-role="${role}"]`);
const canvas = part("preview");
const context = canvas.getContext("2d");
const overlay = part("overlay");
const glare = part("glare");

// What the page has shown, for people and for tests (read through window.viewStats).
const stats = { framesDrawn: 0, framesPerSecond: 0, readRate: 0, lastSequence: 0, finished: null };
window.viewStats = stats;

let frameWidth = 0;
let frameHeight = 0;
let requiredVotes = 4;
let finished = false;
let drawTimes = [];

const socket = new WebSocket(new URL("ws", location.href).href.replace(/^http/, "ws"));
socket.binaryType = "blob";

function send(command, extra = {}) {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ command, ...extra }));
}

function say(text, isError = false) {
  const message = part("message");
  message.textContent = text;
  message.classList.toggle("error", isError);
}

// The SDK's configureForPreviewLayerSize: the view says where the overlay lies on a preview of this size.
async function placeOverlay() {
  const width = Math.round(canvas.clientWidth);
  const height = Math.round(canvas.clientHeight);
  if (width < 1 || height < 1) return;
  const answer = await fetch(`layout?width=${width}&height=${height}`);
  if (!answer.ok) return;
  const layout = await answer.json();
  Object.assign(overlay.style, {
    left: `${layout.overlay.x}px`, top: `${layout.overlay.y}px`,
    width: `${layout.overlay.width}px`, height: `${layout.overlay.height}px`,
  });
  overlay.hidden = false;
}
overlay.addEventListener("error", () => { overlay.hidden = true; });
new ResizeObserver(() => placeOverlay()).observe(canvas);

async function drawFrame(blob) {
  try {
    const bitmap = await createImageBitmap(blob);
    if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
      canvas.width = bitmap.width;
      canvas.height = bitmap.height;
    }
    context.drawImage(bitmap, 0, 0);
    bitmap.close();
    stats.framesDrawn += 1;
    const now = performance.now();
    drawTimes.push(now);
    drawTimes = drawTimes.filter((t) => now - t <= 2000);
    stats.framesPerSecond = drawTimes.length / 2;
  } finally {
    // The next frame only now: a page that draws slowly gets fewer frames, never a queue of them.
    send("drawn");
  }
}

function showGlare(regions) {
  glare.setAttribute("viewBox", `0 0 ${frameWidth || 1} ${frameHeight || 1}`);
  glare.replaceChildren(...regions.map((r) => {
    const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    rect.setAttribute("x", r.x);
    rect.setAttribute("y", r.y);
    rect.setAttribute("width", r.width);
    rect.setAttribute("height", r.height);
    return rect;
  }));
}

function showFrame(state) {
  frameWidth = state.width;
  frameHeight = state.height;
  stats.lastSequence = state.sequence;
  stats.readRate = state.readRate;
  part("partial").textContent = state.partial || "–";
  requiredVotes = state.requiredVotes;
  const progress = part("progress").querySelector("progress");
  progress.max = state.requiredVotes;
  progress.value = Math.min(state.votes, state.requiredVotes);
  part("progress-text").textContent =
    `${Math.min(state.votes, state.requiredVotes)} of ${state.requiredVotes} frames agree` +
    (state.guess ? ` on ${state.guess}` : "");
  part("reason").textContent = state.reason || "";
  part("glare-advice").textContent = state.glareAdvice || "";
  showGlare(state.glare);
}

function showConverged(converged) {
  part("value").textContent = converged.value;
  part("unit").textContent = converged.unit;
  part("crop").src = `crop.png?n=${converged.number}`;
  part("edit-hint").textContent = `Enter ${converged.editHint}.`;
  part("edit-value").value = converged.value;
  part("edit-form").hidden = true;
  part("result").hidden = false;
  part("cancel-reading").hidden = true;
  setButtons(true);
  say("Check the value against the display, then accept it, edit it, read again or cancel.");
}

function withdraw() {
  part("result").hidden = true;
  part("cancel-reading").hidden = false;
  say("Reading again: hold the display to the camera.");
}

function setButtons(enabled) {
  for (const role of ["accept", "edit", "retake", "cancel", "edit-submit", "cancel-reading"]) {
    part(role).disabled = !enabled;
  }
}

function finish(end) {
  finished = true;
  stats.finished = end;
  setButtons(false);
  say(end.advice ? `${end.message}\n${end.advice}` : end.message, end.exitStatus !== 0);
}

socket.addEventListener("message", (event) => {
  if (typeof event.data !== "string") {
    drawFrame(event.data);
    return;
  }
  const message = JSON.parse(event.data);
  switch (message.type) {
    case "session":
      part("peripheral").textContent = message.peripheral;
      part("instructions").textContent = message.instructions;
      requiredVotes = message.requiredVotes;
      break;
    case "frame": showFrame(message); break;
    case "converged": showConverged(message); break;
    case "withdrawn": withdraw(); break;
    case "notice": say(message.message, true); setButtons(!finished); break;
    case "finished": finish(message); break;
  }
});

socket.addEventListener("close", () => {
  if (!finished) {
    setButtons(false);
    say("The view stopped: the vitalsnap command that served it has ended.", true);
  }
});

part("accept").addEventListener("click", () => { setButtons(false); send("accept"); });
part("retake").addEventListener("click", () => { setButtons(false); send("retake"); });
part("cancel").addEventListener("click", () => { setButtons(false); send("cancel"); });
part("cancel-reading").addEventListener("click", () => { setButtons(false); send("cancel"); });
part("edit").addEventListener("click", () => {
  part("edit-form").hidden = false;
  part("edit-value").focus();
});
part("edit-form").addEventListener("submit", (event) => {
  event.preventDefault();
  setButtons(false);
  send("edit", { value: part("edit-value").value.trim() });
});
