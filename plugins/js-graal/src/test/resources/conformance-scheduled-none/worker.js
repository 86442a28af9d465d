export default {
  fetch() { return new Response("no scheduled handler"); },
};
