// The reference page: Swagger UI, served by the service itself, rendering the service's own OpenAPI document.
window.ui = SwaggerUIBundle({
  url: "/openapi.yaml",
  dom_id: "#swagger-ui",
  deepLinking: true,
  // No call to swagger.io's validator: the page must work with no internet, and send nothing elsewhere.
  validatorUrl: null
});
