// env.NAME of a service binding to this Worker itself (runtime-core ServiceBindingProvider): the
// stub of service-bindings.js for the binding's entrypoint (absent: the default export) and props.
(function (host, internal) {
  'use strict';
  return (target, settings) => internal.newServiceStub(settings.entrypoint === undefined ? null : settings.entrypoint,
    settings.props === undefined ? null : settings.props);
});
