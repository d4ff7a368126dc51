/// The coach's live page: one self-contained HTML file (styles and script
/// inline, nothing fetched from elsewhere) that works offline on the box's
/// own Wi-Fi. Black on white and large figures, for a phone in sunlight.
/// It opens `/events` (Server-Sent Events): a `hello` snapshot, then
/// `state`, `run` (a record's JSON line, exactly as written to the results)
/// and `line` events; the browser reconnects by itself if the box restarts.
enum CoachPage {
    static let live: [UInt8] = Array(html.utf8)

    private static let html = """
<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>ts-gate</title>
<style>
body{font:18px/1.35 system-ui,sans-serif;margin:0;background:#fff;color:#000}
header{display:flex;justify-content:space-between;align-items:center;padding:10px 14px;background:#000;color:#fff}
h1{font-size:20px;margin:0}
#link{font-size:14px}
#state{display:inline-block;padding:4px 12px;border-radius:6px;font-weight:700;text-transform:uppercase;background:#ddd}
.armed,.running{background:#0a7d28!important;color:#fff}.stabilising{background:#f2b600!important}.idle{background:#ccc!important}
main{padding:12px 14px}
#last{font-size:64px;font-weight:800;font-variant-numeric:tabular-nums;margin:6px 0}
#lastinfo{font-size:18px;color:#333;min-height:1.4em}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{text-align:right;padding:6px 4px;border-bottom:1px solid #bbb}th{font-size:14px;color:#333}
td:first-child,th:first-child{text-align:left}
.fs{color:#b00000;font-weight:700}.mark{background:#000;color:#fff;border-radius:4px;padding:0 4px;font-size:13px}
#lines{list-style:none;padding:0;font-size:14px;color:#333}#lines .w{color:#b00000;font-weight:700}
#photos img{max-width:100%;height:auto;display:block;margin:6px 0;image-rendering:pixelated}
button,input{font:inherit;font-size:20px;padding:10px 16px;margin:4px 6px 4px 0;border:2px solid #000;border-radius:8px;background:#fff}
button{background:#000;color:#fff;font-weight:700}#cmsg{color:#b00000;font-weight:700}input{width:5em}
</style></head><body>
<header><h1>ts-gate</h1><span id="link">connecting</span></header>
<main>
<div><span id="state">-</span> <span id="session"></span></div>
<div id="last">-.---</div><div id="lastinfo"></div>
<div id="photos"><img id="frame" alt="the crossing frame" hidden><img id="strip" alt="the photo-finish strip" hidden></div>
<table><thead><tr><th>run</th><th>time s</th><th>speed km/h</th><th>&plusmn; ms</th><th></th></tr></thead><tbody id="runs"></tbody></table>
<h2>Control</h2>
<form id="pinform"><input id="pin" inputmode="numeric" maxlength="4" placeholder="PIN" autocomplete="off" aria-label="the box's PIN"><button>Unlock</button></form>
<div id="buttons" hidden><button data-a="arm">Arm</button><button data-a="disarm">Disarm</button><button data-a="start">Start</button><button data-a="athlete">Next athlete</button><button data-a="preset">Next preset</button></div>
<p id="cmsg"></p>
<h2>Log</h2><ul id="lines"></ul>
</main>
<script>
"use strict";
const $=id=>document.getElementById(id);
function secs(ms){return ms==null?"-":(ms/1000).toFixed(3)}
function time(r){return r.type==="race_run"?r.splitTimeMs:(r.splitTimeMs!=null?r.splitTimeMs:null)}
function label(r){if(r.type==="race_run")return "run "+r.runNumber;const n=parseInt((r.runId||"").replace(/\\D/g,""),10);return n===r.lap?"lap "+r.lap:"run "+n}
function cell(tr,text,cls){const td=document.createElement("td");td.textContent=text;if(cls)td.className=cls;tr.appendChild(td);return td}
function addRun(r){
 if(r.type!=="race_run"&&r.splitTimeMs==null)return;
 const tr=document.createElement("tr");
 cell(tr,(r.athlete?r.athlete+" ":"")+label(r));
 cell(tr,r.falseStart?"FALSE START":secs(time(r)),r.falseStart?"fs":"");
 cell(tr,r.speedMps!=null?(r.speedMps*3.6).toFixed(1):"-");
 cell(tr,r.totalUncertaintyMs!=null?r.totalUncertaintyMs.toFixed(1):"-");
 const m=cell(tr,"");for(const k of ["pb","sb"])if(r[k]){const s=document.createElement("span");s.className="mark";s.textContent=k.toUpperCase();m.appendChild(s)}
 $("runs").prepend(tr);
 $("last").textContent=r.falseStart?"FALSE START":secs(time(r));
 let info=label(r);if(r.reactionMs!=null)info+=" \\u00b7 reaction "+secs(r.reactionMs)+" s";if(r.totalUncertaintyMs!=null)info+=" \\u00b7 \\u00b1"+r.totalUncertaintyMs.toFixed(1)+" ms";
 $("lastinfo").textContent=info;
 if(r.type==="crossing"&&r.runId&&session){for(const k of ["frame","strip"])photo($(k),"/photos/"+session+"/"+r.runId+"-"+r.lap+"-"+k+".png",6)}
}
// A crossing's photos are written a slice at a time after it: ask again until they are there.
function photo(img,src,tries){img.onload=()=>{img.hidden=false};img.onerror=()=>{if(tries>0)setTimeout(()=>photo(img,src,tries-1),800)};img.hidden=true;img.src=src+"?t="+tries}
let session="";
function addLine(l){const li=document.createElement("li");li.textContent=l.text;if(l.warning)li.className="w";$("lines").prepend(li);while($("lines").children.length>30)$("lines").lastChild.remove()}
function setState(s){const e=$("state");e.textContent=s;e.className=s}
const events=new EventSource("/events");
events.onopen=()=>{$("link").textContent="live"};
events.onerror=()=>{$("link").textContent="reconnecting"};
events.addEventListener("hello",e=>{const s=JSON.parse(e.data);$("runs").textContent="";$("lines").textContent="";
 session=s.session;$("session").textContent=s.session?"session "+s.session:"";setState(s.state);s.runs.forEach(addRun);s.lines.forEach(addLine)});
events.addEventListener("session",e=>{session=JSON.parse(e.data);$("session").textContent="session "+session;$("runs").textContent=""});
events.addEventListener("state",e=>setState(JSON.parse(e.data)));
events.addEventListener("run",e=>addRun(JSON.parse(e.data)));
events.addEventListener("line",e=>addLine(JSON.parse(e.data)));
function post(path,body){return fetch(path,{method:"POST",headers:{"Content-Type":"application/x-www-form-urlencoded"},body})}
async function say(r){$("cmsg").textContent=r.ok?"":await r.text()}
async function checkControl(){const j=await (await fetch("/api/control")).json();$("buttons").hidden=!j.allowed;$("pinform").hidden=j.allowed}
$("pinform").onsubmit=async e=>{e.preventDefault();const r=await post("/api/pin","pin="+encodeURIComponent($("pin").value));$("pin").value="";await say(r);checkControl()};
for(const b of document.querySelectorAll("#buttons button"))b.onclick=async()=>say(await post("/api/control","action="+b.dataset.a));
checkControl();
</script></body></html>
"""
}
