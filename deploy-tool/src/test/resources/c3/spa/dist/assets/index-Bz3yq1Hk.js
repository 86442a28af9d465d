(function(){const r=document.getElementById("root");fetch("/api/").then(e=>e.json()).then(e=>{r.textContent="Hello, "+e.name})})();
