/** A self-contained reference page (no CDN: tills are often offline) rendered from /api/v1/openapi.json. */
export const REFERENCE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pharmacy till API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
header{background:#0b5d4b;color:#fff;padding:16px 24px}main{max-width:1100px;margin:auto;padding:16px 24px}
h2{border-bottom:2px solid #0b5d4b;padding-top:12px}details{background:#fff;border:1px solid #d9dde3;border-radius:6px;margin:6px 0}
summary{cursor:pointer;padding:8px 12px;font-family:ui-monospace,monospace}
.m{display:inline-block;width:64px;font-weight:700}.get{color:#1a7f37}.post{color:#0969da}.put,.patch{color:#9a6700}.delete{color:#cf222e}
.body{padding:0 12px 12px}pre{background:#f0f2f5;padding:8px;overflow:auto;font-size:12px;border-radius:4px}
input{font-size:15px;padding:6px;width:320px}
</style></head><body>
<header><h1 id="title">Pharmacy till API</h1><p id="desc"></p></header>
<main><label>Filter <input id="filter" placeholder="path, tag or summary" aria-label="Filter operations"></label><div id="ops">Loading…</div></main>
<script>
fetch('openapi.json').then(r=>r.json()).then(doc=>{
  document.getElementById('title').textContent=doc.info.title+' '+doc.info.version;
  document.getElementById('desc').textContent=doc.info.description;
  const byTag={};
  for(const [path,ops] of Object.entries(doc.paths))for(const [m,op] of Object.entries(ops))(byTag[op.tags[0]]??=[]).push({path,m,op});
  const el=document.getElementById('ops');
  const esc=s=>String(s).replace(/[&<>]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;'}[c]));
  const render=f=>{el.innerHTML='';for(const [tag,list] of Object.entries(byTag)){
    const shown=list.filter(o=>!f||(tag+o.path+o.op.summary).toLowerCase().includes(f));if(!shown.length)continue;
    el.insertAdjacentHTML('beforeend','<h2>'+esc(tag)+'</h2>'+shown.map(o=>'<details><summary><span class="m '+o.m+'">'+o.m.toUpperCase()+'</span>'+esc(o.path)+' — '+esc(o.op.summary)+'</summary><div class="body"><p>'+esc(o.op.description||'')+'</p>'+
      (o.op.parameters?.length?'<h4>Parameters</h4><pre>'+esc(JSON.stringify(o.op.parameters,null,2))+'</pre>':'')+
      (o.op.requestBody?'<h4>Request body</h4><pre>'+esc(JSON.stringify(o.op.requestBody.content['application/json'].schema,null,2))+'</pre>':'')+
      '<h4>Responses</h4><pre>'+esc(JSON.stringify(o.op.responses,null,2))+'</pre></div></details>').join(''));}};
  render('');document.getElementById('filter').addEventListener('input',e=>render(e.target.value.toLowerCase()));
});
</script></body></html>`;
