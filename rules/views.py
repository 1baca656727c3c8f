from django.shortcuts import render


def page_list(request):
    return render(request, "rules/page_list.html", {})
